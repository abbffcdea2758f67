/**
 * Discovery lag: how long after publication svc first saw each paper, as a
 * histogram, the corpus's median and quartiles, and each source's.
 */
import { useMemo } from 'preact/hooks';
import { analytics, type DiscoveryLag, type LagFigures } from '../api/analytics.js';
import { Chart } from '../ui/chart.js';
import { count } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { NumbersTable, View } from './view.js';

const days = (n: number | null) => (n === null ? null : `${n.toLocaleString()} d`);

function Body({ data, nameOf }: { data: DiscoveryLag; nameOf: (id: string) => string }) {
  const chart = useMemo(() => ({ labels: data.buckets.map((b) => b.label), series: [{ label: 'Papers', values: data.buckets.map((b) => b.papers), tone: 1 as const }] }), [data]);
  const o = data.overall;
  const rows: (LagFigures & { name: string })[] = [{ name: 'All sources', ...o }, ...data.sources.map((s) => ({ ...s, name: nameOf(s.source) }))];
  const excluded = Object.values(data.excluded).reduce((a, b) => a + b, 0);
  return (
    <>
      <p class="headline">
        Median <strong>{days(o.median_days)}</strong> from publication to first seen (half of the papers between {days(o.p25_days)} and {days(o.p75_days)}), over{' '}
        {count(o.papers, 'paper')} dated to the day.
      </p>
      <Chart kind="bars" labels={chart.labels} series={chart.series} unit="papers" summary={`How long after publication ${count(o.papers, 'paper')} were first seen, in ${data.buckets.length} spans; the tables below give the numbers.`} />
      <NumbersTable caption="Papers by discovery lag" rows={data.buckets} rowKey={(b) => b.label} columns={[{ label: 'First seen', cell: (b) => b.label, kind: 'header' }, { label: 'Papers', cell: (b) => b.papers }]} />
      <NumbersTable
        caption="Discovery lag per source"
        rows={rows}
        rowKey={(r) => r.name}
        columns={[
          { label: 'Source', cell: (r) => r.name, kind: 'header' },
          { label: 'Papers', cell: (r) => r.papers },
          { label: 'Median', cell: (r) => days(r.median_days) },
          { label: '25% seen by', cell: (r) => days(r.p25_days) },
          { label: '75% seen by', cell: (r) => days(r.p75_days) },
          { label: 'Seen before publication', cell: (r) => r.seen_before_publication },
        ]}
      />
      {excluded > 0 && <p class="muted view-foot">{count(excluded, 'paper')} without a day of publication are left out (a month or a year would invent a lag).</p>}
    </>
  );
}

export function LagView({ window, nameOf }: { window: string; nameOf: (id: string) => string }) {
  const answer = useResource((signal) => analytics.lag({ window: window || undefined }, signal), [window]);
  const data = answer.data;
  return (
    <View id="lag" title="Discovery lag" lede="How soon after publication svc first saw each paper." error={answer.error} loading={answer.loading} method={data?.method}>
      {data &&
        (data.overall.papers === 0 ? (
          <EmptyState title="No paper first seen in this window is dated to the day.">
            <p>
              Collect papers with a dive or a sweep from <a href="/search">Search</a>, or widen the window.
            </p>
          </EmptyState>
        ) : (
          <Body data={data} nameOf={nameOf} />
        ))}
    </View>
  );
}

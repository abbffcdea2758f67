/**
 * Source contribution: what each source delivered in the window, how much of
 * it it found first, and what it alone has (what would be missing without it);
 * how often it was asked and why it did not answer.
 */
import { useMemo } from 'preact/hooks';
import { analytics, type SourceContribution } from '../api/analytics.js';
import { reasonWords } from '../api/errors.js';
import { Chart } from '../ui/chart.js';
import { count } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { NumbersTable, View } from './view.js';

type Row = SourceContribution['sources'][number];

const reasons = (row: Row) =>
  Object.entries(row.zero_reasons)
    .map(([reason, n]) => `${reasonWords(reason)} ×${n}`)
    .join(', ') || null;

function Body({ data, nameOf }: { data: SourceContribution; nameOf: (id: string) => string }) {
  const chart = useMemo(
    () => ({
      labels: data.sources.map((s) => nameOf(s.source)),
      series: [
        { label: 'Delivered', values: data.sources.map((s) => s.delivered), tone: 1 as const },
        { label: 'Found first', values: data.sources.map((s) => s.first_found), tone: 3 as const },
        { label: 'Only this source', values: data.sources.map((s) => s.only_this_source), tone: 2 as const },
      ],
    }),
    [data, nameOf],
  );
  return (
    <>
      <Chart
        kind="bars"
        labels={chart.labels}
        series={chart.series}
        unit="papers"
        summary={`Papers delivered by each of ${count(data.sources.length, 'source')}, with inside each bar those it found first and those only it has; the table below gives the numbers.`}
      />
      <NumbersTable
        caption="What each source contributed"
        rows={data.sources}
        rowKey={(s) => s.source}
        columns={[
          { label: 'Source', cell: (s) => nameOf(s.source), kind: 'header' },
          { label: 'Delivered', cell: (s) => s.delivered },
          { label: 'Found first', cell: (s) => s.first_found },
          { label: 'Only this source', cell: (s) => s.only_this_source },
          { label: 'In the corpus (all time)', cell: (s) => s.in_corpus },
          { label: 'Runs asked', cell: (s) => s.runs_asked },
          { label: 'Not answered', cell: (s) => s.runs_not_answered },
          { label: 'Why nothing came', cell: reasons, kind: 'text' },
        ]}
      />
      <p class="muted view-foot">
        {count(data.totals.delivered, 'distinct paper')} delivered in the window; {count(data.totals.only_one_source, 'paper')} held by one source only.
      </p>
    </>
  );
}

export function SourcesView({ window, nameOf }: { window: string; nameOf: (id: string) => string }) {
  const answer = useResource((signal) => analytics.sources({ window: window || undefined }, signal), [window]);
  const data = answer.data;
  return (
    <View id="sources" title="Source contribution" lede="What each source brought in the window, and what only it has." error={answer.error} loading={answer.loading} method={data?.method}>
      {data &&
        (data.sources.length === 0 ? (
          <EmptyState title="No source was asked in this window.">
            <p>
              Run a dive or a sweep from <a href="/search">Search</a>, or widen the window.
            </p>
          </EmptyState>
        ) : (
          <Body data={data} nameOf={nameOf} />
        ))}
    </View>
  );
}

/**
 * Publication volume: papers per publication month, split by source or by
 * subject category, the largest series named and the rest summed as "other".
 */
import { useMemo } from 'preact/hooks';
import { analytics, type Volume } from '../api/analytics.js';
import { Chart, type ChartSeries } from '../ui/chart.js';
import { count } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { ChoiceField } from './choice.js';
import { param, refusalByField } from './params.js';
import { NumbersTable, View, type Column } from './view.js';

const TOPS = ['3', '5', '10', '20', '50'];

function Controls({ split, top, errors }: { split: string; top: string; errors: Record<string, string[]> }) {
  return (
    <>
      <ChoiceField
        name="split"
        label="Split by"
        value={split}
        fallback="source"
        choices={[
          { value: 'source', label: 'Source' },
          { value: 'category', label: 'Subject category' },
        ]}
        other={(v) => v}
        errors={errors.split}
      />
      <ChoiceField name="top" label="Series named" value={top} fallback="10" choices={TOPS.map((n) => ({ value: n, label: `${n} largest` }))} other={(v) => `${v} largest`} errors={errors.top} />
    </>
  );
}

function Body({ data, nameOf }: { data: Volume; nameOf: (key: string) => string }) {
  const label = (key: string) => (key === 'other' ? 'Other' : data.split === 'source' ? nameOf(key) : key);
  const chart = useMemo(() => {
    const series: ChartSeries[] = [
      { label: 'All papers', values: data.months.map((m) => m.total), tone: 'total' },
      ...data.series.map((s, i): ChartSeries => ({ label: label(s.key), values: data.months.map((m) => m.by[s.key] ?? 0), tone: s.key === 'other' ? 'other' : (i % 8) + 1 })),
    ];
    return { labels: data.months.map((m) => m.month), series };
  }, [data, nameOf]);
  const columns: Column<Volume['months'][number]>[] = [
    { label: 'Month', cell: (m) => m.month, kind: 'header' },
    { label: 'All papers', cell: (m) => m.total },
    ...data.series.map((s) => ({ label: label(s.key), cell: (m: Volume['months'][number]) => m.by[s.key] ?? 0 })),
  ];
  const first = data.months[0]?.month;
  const last = data.months.at(-1)?.month;
  return (
    <>
      <Chart
        kind="lines"
        labels={chart.labels}
        series={chart.series}
        unit="papers"
        summary={`Papers per publication month from ${first} to ${last}, ${count(data.totals.dated_papers, 'paper')} in all, split by ${data.split === 'source' ? 'source' : 'subject category'}; the table below gives each month's numbers.`}
      />
      <NumbersTable caption={`Papers per publication month, by ${data.split}`} columns={columns} rows={data.months} rowKey={(m) => m.month} />
      <p class="muted view-foot">
        {count(data.totals.dated_papers, 'paper')} dated to the month or day.{' '}
        {data.totals.year_only_papers + data.totals.undated_papers > 0 &&
          `${count(data.totals.year_only_papers, 'paper')} dated only to the year and ${count(data.totals.undated_papers, 'undated paper')} are counted apart, in no month. `}
        {data.split === 'source' && 'A paper held by several sources counts under each, so a month’s split can add up to more than its total.'}
      </p>
    </>
  );
}

export function VolumeView({ window, nameOf }: { window: string; nameOf: (key: string) => string }) {
  const split = param('split');
  const top = param('top');
  const answer = useResource((signal) => analytics.volume({ window: window || undefined, split: split || undefined, top: top || undefined }, signal), [window, split, top]);
  const data = answer.data;
  const refusal = refusalByField(answer.error, ['split', 'top']);
  return (
    <View
      id="volume"
      title="Publication volume"
      lede="Papers per month of publication, for the papers first seen in the window."
      controls={<Controls split={split} top={top} errors={refusal.byField} />}
      error={refusal.rest}
      loading={answer.loading}
      method={data?.method}
    >
      {data &&
        (data.months.length === 0 ? (
          <EmptyState title="No paper first seen in this window has a publication month.">
            <p>
              Widen the window, or collect papers with a dive or a sweep from <a href="/search">Search</a>.
            </p>
          </EmptyState>
        ) : (
          <Body data={data} nameOf={nameOf} />
        ))}
    </View>
  );
}

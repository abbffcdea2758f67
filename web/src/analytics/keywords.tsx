/**
 * Keyword contribution: for the runs that carried keywords, the papers each
 * keyword's runs returned, those that contain it, and those only it found —
 * over every run of the window or one routine's.
 */
import { useMemo } from 'preact/hooks';
import { analytics, type KeywordContribution, type RoutineRef } from '../api/analytics.js';
import { Chart } from '../ui/chart.js';
import { count } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { ChoiceField } from './choice.js';
import { param, refusalByField } from './params.js';
import { NumbersTable, View } from './view.js';

function Body({ data }: { data: KeywordContribution }) {
  const chart = useMemo(
    () => ({
      labels: data.keywords.map((k) => k.keyword),
      series: [
        { label: 'Papers found', values: data.keywords.map((k) => k.papers_found), tone: 1 as const },
        { label: 'Containing it', values: data.keywords.map((k) => k.papers_matching), tone: 3 as const },
        { label: 'Only this keyword', values: data.keywords.map((k) => k.only_this_keyword), tone: 2 as const },
      ],
    }),
    [data],
  );
  return (
    <>
      <Chart
        kind="bars"
        labels={chart.labels}
        series={chart.series}
        unit="papers"
        summary={`Papers found by the runs of each of ${count(data.keywords.length, 'keyword')}, with inside each bar those containing it and those only it found; the table below gives the numbers.`}
      />
      <NumbersTable
        caption="What each keyword contributed"
        rows={data.keywords}
        rowKey={(k) => k.keyword}
        columns={[
          { label: 'Keyword', cell: (k) => k.keyword, kind: 'header' },
          { label: 'Runs', cell: (k) => k.runs },
          { label: 'Papers found', cell: (k) => k.papers_found },
          { label: 'Containing it', cell: (k) => k.papers_matching },
          { label: 'Only this keyword', cell: (k) => k.only_this_keyword },
        ]}
      />
      <p class="muted view-foot">
        {count(data.totals.runs_with_keywords, 'run')} of {data.totals.runs_considered} carried keywords; of their {count(data.totals.papers, 'paper')},{' '}
        {data.totals.papers_matching_no_keyword.toLocaleString()} contain none of them (expected: most sources rank by more than title and abstract).
      </p>
    </>
  );
}

export function KeywordsView({ window, routines }: { window: string; routines: RoutineRef[] }) {
  const routine = param('routine');
  const answer = useResource((signal) => analytics.keywords({ window: window || undefined, routine_id: routine || undefined }, signal), [window, routine]);
  const data = answer.data;
  const refusal = refusalByField(answer.error, ['routine_id']);
  const notFound = (answer.error as { reason?: string } | null)?.reason === 'routine_not_found';
  const controls = (
    <ChoiceField
      name="routine"
      label="Runs of"
      value={routine}
      fallback=""
      choices={[{ value: '', label: 'Every search and routine' }, ...routines.map((r) => ({ value: String(r.id), label: r.name }))]}
      other={(v) => `Routine ${v}`}
      errors={notFound ? [(answer.error as Error).message] : refusal.byField.routine_id}
    />
  );
  return (
    <View
      id="keywords"
      title="Keyword contribution"
      lede="For searches that carried keywords: the papers each keyword's runs returned, and those only it found."
      controls={controls}
      error={notFound ? null : refusal.rest}
      loading={answer.loading}
      method={data?.method}
    >
      {data &&
        (data.keywords.length === 0 ? (
          <EmptyState title={routine ? 'No run of this routine in the window carried keywords.' : 'No run in this window carried keywords.'}>
            <p>
              Give keywords to a search (the “Keywords that must also match” field on <a href="/search">Search</a>) or to a routine, then run it.
            </p>
          </EmptyState>
        ) : (
          <Body data={data} />
        ))}
    </View>
  );
}

/**
 * Routine health: the papers new to the corpus in each of a routine's latest
 * runs, and whether it has gone quiet against its own history (the service
 * judges; too few runs is "not judged", with its reason).
 */
import { useMemo } from 'preact/hooks';
import { analytics, type RoutineHealth } from '../api/analytics.js';
import { reasonWords } from '../api/errors.js';
import { Chart, type ChartSeries } from '../ui/chart.js';
import { count, minute } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { ChoiceField } from './choice.js';
import { param, refusalByField } from './params.js';
import { NumbersTable, View } from './view.js';

type Routine = RoutineHealth['routines'][number];

const RUNS = ['5', '10', '20', '50', '100', '200'];

const quietWords = (r: Routine) => (r.quiet === null ? 'Not judged' : r.quiet ? 'Quiet' : 'No');

function Body({ data }: { data: RoutineHealth }) {
  const withRuns = data.routines.filter((r) => r.runs.length > 0);
  const chart = useMemo(() => {
    // One time axis for every routine: each routine has a value at its own runs' instants and none between.
    const instants = [...new Set(withRuns.flatMap((r) => r.runs.map((run) => run.started_at_utc)))].sort();
    const series: ChartSeries[] = withRuns.map((r, i) => {
      const byInstant = new Map(r.runs.map((run) => [run.started_at_utc, run.new_count]));
      return { label: r.quiet ? `${r.name} (quiet)` : r.name, values: instants.map((t) => byInstant.get(t) ?? null), tone: (i % 8) + 1 };
    });
    return { times: instants.map((t) => Date.parse(t) / 1000), labels: instants.map((t) => minute(t)), series };
  }, [data]);
  const runs = data.routines.flatMap((r) => r.runs.map((run) => ({ ...run, routine: r.name })));
  return (
    <>
      {withRuns.length > 0 && (
        <Chart
          kind="lines"
          times={chart.times}
          labels={chart.labels}
          series={chart.series}
          unit="new papers"
          summary={`New papers per run for ${count(withRuns.length, 'routine')} over their latest runs; the tables below give each routine's figures and each run's numbers.`}
        />
      )}
      <NumbersTable
        caption="Each routine's health"
        rows={data.routines}
        rowKey={(r) => String(r.routine_id)}
        columns={[
          { label: 'Routine', cell: (r) => `${r.name}${r.is_active ? '' : ' (inactive)'}`, kind: 'header' },
          { label: 'Runs', cell: (r) => r.runs_considered },
          { label: 'Completed', cell: (r) => r.completed_runs },
          { label: 'Failed', cell: (r) => r.failed_runs },
          { label: 'Mean new per run', cell: (r) => r.new_per_run.mean },
          { label: 'Median new', cell: (r) => r.new_per_run.median },
          { label: 'Last run new', cell: (r) => r.new_per_run.last },
          { label: 'Gone quiet', cell: quietWords, kind: 'text' },
          { label: 'Why', cell: (r) => r.quiet_reason, kind: 'text' },
        ]}
      />
      {runs.length > 0 && (
        <NumbersTable
          caption="Each run in the chart"
          rows={runs}
          rowKey={(run) => String(run.execution_id)}
          columns={[
            { label: 'Run', cell: (run) => <a href={`/runs/${run.execution_id}`}>Run {run.execution_id}</a>, kind: 'header' },
            { label: 'Routine', cell: (run) => run.routine, kind: 'text' },
            { label: 'Started', cell: (run) => minute(run.started_at_utc), kind: 'text' },
            { label: 'Status', cell: (run) => reasonWords(run.status), kind: 'text' },
            { label: 'Papers', cell: (run) => run.result_count },
            { label: 'New', cell: (run) => run.new_count },
          ]}
        />
      )}
    </>
  );
}

export function HealthView({ window }: { window: string }) {
  const runs = param('runs');
  const answer = useResource((signal) => analytics.health({ window: window || undefined, runs: runs || undefined }, signal), [window, runs]);
  const data = answer.data;
  const refusal = refusalByField(answer.error, ['runs']);
  return (
    <View
      id="health"
      title="Routine health"
      lede="New papers in each routine's latest runs, and whether a routine has gone quiet against its own history."
      controls={<ChoiceField name="runs" label="Runs per routine" value={runs} fallback="20" choices={RUNS.map((n) => ({ value: n, label: `Last ${n}` }))} other={(v) => `Last ${v}`} errors={refusal.byField.runs} />}
      error={refusal.rest}
      loading={answer.loading}
      method={data?.method}
    >
      {data &&
        (data.routines.length === 0 ? (
          <EmptyState title="There is no routine yet.">
            <p>
              A routine runs a search on a schedule and keeps what is new: add one with <code>svc routine add</code>; its runs appear here.
            </p>
          </EmptyState>
        ) : (
          <Body data={data} />
        ))}
    </View>
  );
}

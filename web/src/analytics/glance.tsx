/** The window at a glance (GET /api/analytics/summary): the corpus, the runs and the routines in counts. */
import type { Summary } from '../api/analytics.js';
import { reasonWords } from '../api/errors.js';
import { minute } from '../ui/format.js';

function Stat({ label, value, note }: { label: string; value: number; note?: string }) {
  return (
    <div class="stat">
      <dt>{label}</dt>
      <dd>
        <span class="stat-value">{value.toLocaleString()}</span>
        {note && <span class="stat-note">{note}</span>}
      </dd>
    </div>
  );
}

export function Glance({ summary }: { summary: Summary }) {
  const c = summary.corpus;
  const runs = Object.values(summary.executions).reduce((a, b) => a + b, 0);
  const byStatus = Object.entries(summary.executions)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n.toLocaleString()} ${reasonWords(status)}`)
    .join(', ');
  const w = summary.window;
  return (
    <section class="card glance" aria-labelledby="glance-title">
      <h2 id="glance-title">At a glance</h2>
      <p class="muted">
        {w.from_utc ? `From ${minute(w.from_utc)} to ${minute(w.to_utc)}` : `Everything collected up to ${minute(w.to_utc)}`}: {w.applies_to.replace(/from from_utc to to_utc /, '')}.
      </p>
      <dl class="stats">
        <Stat label="Papers first seen" value={c.documents_in_window} note={`of ${c.documents_total.toLocaleString()} in the corpus`} />
        <Stat label="With a DOI" value={c.with_doi} />
        <Stat label="With an abstract" value={c.with_abstract} />
        <Stat label="Open access" value={c.open_access} />
        <Stat label="Preprints" value={c.preprints} />
        <Stat label="Retracted" value={c.retracted} />
        <Stat label="Runs" value={runs} note={byStatus || undefined} />
        <Stat label="Sources" value={summary.distinct.sources} />
        <Stat label="Routines" value={summary.routines.active} note={`active; ${summary.routines.inactive.toLocaleString()} inactive`} />
        <Stat label="Lifecycle events" value={summary.lifecycle_events} />
      </dl>
    </section>
  );
}

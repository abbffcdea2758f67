/** The coverage audit of a routine: how its results compare with its intent sentence, with the service's method and caveats. */
import { routines, type CoverageSide } from '../api/routines.js';
import { count } from '../ui/format.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

/** `lowerBoundReason`: the side's total is a lower bound (the missed side), and why. */
function Side({ title, side, empty, lowerBoundReason }: { title: string; side: CoverageSide; empty: string; lowerBoundReason?: string }) {
  return (
    <div class="coverage-side">
      <h3>
        {title}: {side.total.toLocaleString()}
        {lowerBoundReason ? ' at least' : ''}
      </h3>
      {lowerBoundReason && <p class="field-hint">{lowerBoundReason}</p>}
      {side.examples.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <ul class="plain-list">
          {side.examples.map((e) => (
            <li key={e.id}>
              <a href={`/papers/${e.id}`}>{e.title}</a> <span class="muted">{[e.publication_date, e.found_by.join(', '), e.matched_terms.length ? `matches ${e.matched_terms.join(', ')}` : 'matches no intent word'].filter(Boolean).join(' · ')}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function CoverageAudit({ id }: { id: number }) {
  const audit = useResource((signal) => routines.coverage(id, signal), [id]);
  const a = audit.data;
  return (
    <section class="run-section" aria-labelledby="coverage-title">
      <h2 id="coverage-title">Coverage audit</h2>
      <ErrorNote error={audit.error} title="svc could not audit this routine." />
      {!a && audit.loading && <Busy label="Comparing the results with the intent…" />}
      {a && !a.judged && (
        <div class="empty">
          <p class="empty-title">Not judged.</p>
          <p class="empty-next">{a.message}</p>
          <p class="empty-next">
            <a href={`/routines/${id}/edit`}>Give the routine an intent sentence</a>.
          </p>
        </div>
      )}
      {a && a.judged && (
        <>
          <p>
            Intent: “{a.intent}” — words looked for: {a.terms.join(', ')}. {count(a.results_total, 'result')}, {a.on_target_total.toLocaleString()} on target.
          </p>
          <div class="coverage-sides">
            <Side title="Off target" side={a.off_target} empty="Every result fits the intent." />
            <Side title="Missed, though in the corpus" side={a.missed_in_corpus} empty="Nothing in the corpus that fits the intent was missed." lowerBoundReason={a.missed_in_corpus.lower_bound_reason} />
          </div>
          {a.caveats.map((c) => (
            <p class="field-hint" key={c}>
              {c}
            </p>
          ))}
          <details>
            <summary>How svc judges this</summary>
            <p>{a.method}</p>
          </details>
        </>
      )}
    </section>
  );
}

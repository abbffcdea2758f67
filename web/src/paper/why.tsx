/**
 * "Why is this paper here", in sentences: each stored run that found it (when,
 * which source, at what place in that source's answer, whether it was new
 * then) and which of the run's words occur in which field of the record; the
 * records kept for it; and what cannot be verified from here, in the service's
 * own sentences. The method is one click away.
 */
import type { TermMatch, WhyAnswer, WhyExecution } from '../api/papers.js';
import { minute } from '../ui/format.js';

const VERDICT: Record<string, string> = {
  all_terms_matched: 'Every word it searched for is in the record.',
  some_terms_matched: 'Only some of the words it searched for are in the record.',
  no_term_matched: 'None of the words it searched for is in the record.',
  no_terms: 'It searched for no words (a date window or an author alone).',
  record_missing: 'The record that source gave is no longer stored, so the words cannot be checked.',
};

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
};

const fieldList = (fields: string[]) => (fields.length <= 1 ? fields.join('') : `${fields.slice(0, -1).join(', ')} and ${fields[fields.length - 1]}`);

function Term({ term }: { term: TermMatch }) {
  const name = term.kind === 'keyword' ? `the keyword “${term.term}”` : `“${term.term}”`;
  return (
    <li class={term.fields.length ? 'term term-found' : 'term term-missing'}>
      {term.fields.length ? (
        <>
          {name} is in the {fieldList(term.fields)}
        </>
      ) : (
        <>{name} is in no field svc received</>
      )}
    </li>
  );
}

function Run({ run, sourceName }: { run: WhyExecution; sourceName: (id: string) => string }) {
  const what = run.routine ? `A run of the routine ${run.routine.name ? `“${run.routine.name}”` : `${run.routine.id} (since deleted)`}` : `A ${run.type}`;
  return (
    <li class="why-run">
      <p>
        {what}, <a href={`/runs/${run.execution_id}`}>execution {run.execution_id}</a>, started {minute(run.started_at_utc)}
        {run.query ? (
          <>
            {' '}
            searching for <q>{run.query}</q>
          </>
        ) : null}
        {run.author ? ` by the author “${run.author}”` : ''}: {sourceName(run.source)} gave this paper {ordinal(run.rank + 1)} in its answer
        {run.first_found_by_this_run ? ', and it was new to the corpus then.' : '; it was already in the corpus.'}
      </p>
      <p class="why-verdict">{VERDICT[run.verdict] ?? run.verdict.replace(/_/g, ' ')}</p>
      {run.terms.length > 0 && (
        <ul class="terms" aria-label={`Words of execution ${run.execution_id}`}>
          {run.terms.map((t) => (
            <Term key={`${t.kind}:${t.term}`} term={t} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function Why({ why, sourceName }: { why: WhyAnswer; sourceName: (id: string) => string }) {
  return (
    <section class="paper-section" aria-labelledby="why-heading">
      <h2 id="why-heading">Why it is here</h2>
      <p>
        First seen {minute(why.first_seen_at_utc)}. {why.found_by.length === 1 ? 'One source record is kept' : `${why.found_by.length} source records are kept`} for it:{' '}
        {why.found_by.map((f, i) => (
          <span key={`${f.source}:${f.native_id}`}>
            {i > 0 && '; '}
            {sourceName(f.source)} <code>{f.native_id}</code> (last seen {minute(f.last_seen_at_utc)}
            {f.linked_to_stored_run ? '' : ', no stored run found it'})
          </span>
        ))}
        .
      </p>
      {why.executions.length > 0 ? (
        <ol class="why-runs">
          {why.executions.map((run) => (
            <Run key={`${run.execution_id}:${run.source}`} run={run} sourceName={sourceName} />
          ))}
        </ol>
      ) : (
        <p class="muted">No stored run found this paper.</p>
      )}
      {why.cannot_verify.length > 0 && (
        <>
          <h3>What cannot be verified here</h3>
          <ul class="cannot-verify">
            {why.cannot_verify.map((sentence) => (
              <li key={sentence}>{sentence}</li>
            ))}
          </ul>
        </>
      )}
      <details class="method">
        <summary>How svc checks this</summary>
        <p>{why.method}</p>
      </details>
    </section>
  );
}

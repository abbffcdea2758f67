/** A project's answers, oldest first under a fixed ceiling, 50 a page; each opens as `?answer=<id>`. */
import { useState } from 'preact/hooks';
import { answers, type AnswerRow, type History } from '../api/answers.js';
import { href, place } from '../router.js';
import { moveThroughRows } from '../ui/arrow-list.js';
import { minute } from '../ui/format.js';
import { EmptyState, ErrorNote } from '../ui/notes.js';

const validity = (r: AnswerRow) => (r.validated === true ? 'validated' : r.validated === false ? 'unvalidated' : '—');

export function HistoryList({ vaultId, projectId, first }: { vaultId: string; projectId: string; first: History }) {
  const [rows, setRows] = useState<AnswerRow[]>(first.answers);
  const [next, setNext] = useState<number | null>(first.next_after_id);
  const [error, setError] = useState<unknown>(null);
  if (rows.length === 0) {
    return (
      <EmptyState title="No answers yet">
        <p>Choose pages or saved passages on the Ask tab, write an instruction and preview the request; what you send is kept here.</p>
      </EmptyState>
    );
  }
  const more = async () => {
    try {
      const page = await answers.history(vaultId, projectId, next ?? undefined, first.through_id);
      setRows((r) => [...r, ...page.answers]);
      setNext(page.next_after_id);
    } catch (err) {
      setError(err);
    }
  };
  const base = place.value.path;
  return (
    <>
      <div class="table-wrap" onKeyDown={moveThroughRows}>
      <table class="answer-history">
        <caption class="visually-hidden">Answers of this project, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Asked</th>
            <th scope="col">State</th>
            <th scope="col">Result</th>
            <th scope="col">Connection</th>
            <th scope="col">Sources</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.answer_id}>
              <td>
                <a data-row-link href={href(base, { answer: r.answer_id })}>{minute(r.created_at_utc)}</a>
              </td>
              <td>{r.state}</td>
              <td>{validity(r)}</td>
              <td>
                {r.choices.provider}, {r.choices.model ?? 'default model'}
              </td>
              <td>
                {r.source_count} sources{r.note_count ? `, ${r.note_count} notes` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      <p class="muted small">
        {rows.length} of {first.total} shown.
      </p>
      {next !== null && (
        <button type="button" onClick={more}>
          Show more
        </button>
      )}
      <ErrorNote error={error} />
    </>
  );
}

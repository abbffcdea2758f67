/**
 * Each source of a run: what it is doing or did, how many papers it gave and
 * how many were new to the corpus, pages and time, and — when it gave nothing
 * — the zero reason with the service's words for it and its own message.
 * While the run goes, the counts come from its event stream.
 */
import type { RunSource } from '../api/executions.js';
import { reasonWords } from '../api/errors.js';
import type { LiveSource } from './follow.js';
import { duration } from './words.js';

const STATE_WORDS: Record<string, string> = {
  pending: 'waiting',
  running: 'asking',
  answered: 'answered',
  not_answered: 'did not answer',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

const STATE_CHIP: Record<string, string> = {
  answered: 'chip chip-ok',
  not_answered: 'chip chip-danger',
  cancelled: 'chip chip-warn',
  interrupted: 'chip chip-warn',
  running: 'chip chip-running',
};

function Why({ source }: { source: RunSource }) {
  if (source.record_count > 0) return source.message ? <p class="cell-note">{source.message}</p> : null;
  if (!source.zero_reason_meaning) {
    // not_recorded is never shown as a reason: the state says what happened.
    return source.message ? <p class="cell-note">{source.message}</p> : null;
  }
  return (
    <div class="zero-why">
      <span class="chip chip-warn">{reasonWords(source.zero_reason ?? '')}</span> <span>{source.zero_reason_meaning}</span>
      {source.message && <p class="cell-note">{source.message}</p>}
    </div>
  );
}

export function SourceTable({ sources, live, now }: { sources: RunSource[]; live: Record<string, LiveSource>; now: number }) {
  return (
    <div class="table-wrap">
      <table class="source-table">
        <caption class="visually-hidden">Progress per source</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">State</th>
            <th scope="col" class="num">
              Papers
            </th>
            <th scope="col" class="num">
              Pages
            </th>
            <th scope="col" class="num">
              Time
            </th>
            <th scope="col">What it said</th>
          </tr>
        </thead>
        <tbody>
          {sources.map((s) => {
            const going = s.status === 'running' || s.status === 'pending';
            const l = going ? live[s.source] : undefined;
            const state = l?.asking ? 'running' : s.status;
            const papers = l ? l.kept : s.record_count;
            const ms = s.ms ?? (s.started_at_utc && going ? now - Date.parse(s.started_at_utc) : null);
            return (
              <tr key={s.source} data-source={s.source}>
                <th scope="row">
                  {s.name} <span class="source-id">{s.source}</span>
                </th>
                <td>
                  <span class={STATE_CHIP[state] ?? 'chip'}>
                    {state === 'running' && <span class="spinner small" aria-hidden="true" />}
                    {STATE_WORDS[state] ?? state}
                  </span>
                </td>
                <td class="num">
                  {papers.toLocaleString()}
                  {!going && s.new_count > 0 && <p class="cell-note">{s.new_count.toLocaleString()} new</p>}
                  {l?.reported != null && <p class="cell-note">of {l.reported.toLocaleString()} reported</p>}
                </td>
                <td class="num">{(l?.pages ?? s.pages).toLocaleString()}</td>
                <td class="num">{duration(ms)}</td>
                <td>{going ? <span class="muted">{l?.asking ? 'asking…' : 'waiting for its turn'}</span> : <Why source={s} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The dated search record of a run, readable: what was asked, and for every
 * source the request it was sent (never a key: only whether one was used),
 * the date window asked and answered, counts, timings, every HTTP exchange,
 * and — when it gave nothing — its zero reason in the service's words. The
 * record itself (JSON) can be saved for a methods section.
 */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { reasonWords } from '../api/errors.js';
import { runs, type RecordSource, type SearchRecord, type WindowRange } from '../api/executions.js';
import { minute } from '../ui/format.js';
import { ErrorNote } from '../ui/notes.js';
import { duration } from './words.js';

const KEY_WORDS: Record<string, string> = { none: 'no key', stored: 'the stored key', ephemeral: 'a key given for this run only' };
const SUPPORT_WORDS: Record<string, string> = { exact: 'to the day', year: 'by whole years (trimmed to the day by svc)', required: 'only with a window', none: 'cannot filter by date' };

const range = (w: WindowRange | null | undefined) => (w ? `${w.from ?? 'the start'} to ${w.to ?? 'today'}` : 'none');

function Counts({ s }: { s: RecordSource }) {
  const c = s.counts;
  const rows: [string, number | null][] = [
    ['kept', c.records],
    ['new to the corpus', c.new_to_corpus],
    ['received', c.received],
    ['reported by the source', c.total_reported],
    ['unusable (no title)', c.unusable],
    ['filtered out (outside the window or keywords)', c.filtered_out],
    ['withheld for rights', c.rights_filtered],
  ];
  return (
    <dl class="facts compact">
      {rows
        .filter(([label, n]) => n !== null && (n > 0 || label === 'kept' || label === 'received'))
        .map(([label, n]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{n!.toLocaleString()}</dd>
          </Fragment>
        ))}
    </dl>
  );
}

function SourceRecord({ s }: { s: RecordSource }) {
  return (
    <section class="record-source" aria-labelledby={`record-${s.source}`}>
      <h3 id={`record-${s.source}`}>
        {s.name} <span class="source-id">{s.source}</span> <span class={s.answered ? 'chip chip-ok' : 'chip chip-warn'}>{s.answered ? 'answered' : 'did not answer'}</span>
      </h3>
      {s.zero_reason && s.zero_reason !== 'not_recorded' && (
        <p class="zero-why">
          <span class="chip chip-warn">{reasonWords(s.zero_reason)}</span> {s.zero_reason_meaning}
        </p>
      )}
      {s.message && <p class="muted">{s.message}</p>}
      <div class="record-grid">
        <dl class="facts compact">
          {s.request && (
            <>
              <dt>Asked</dt>
              <dd>
                “{s.request.query}”{s.request.keywords.length > 0 && ` with keywords ${s.request.keywords.join(', ')}`}
                {s.request.author && `, by ${s.request.author}`}, up to {s.request.max_results.toLocaleString()}
              </dd>
              <dt>At</dt>
              <dd>
                <code>{s.request.base_url}</code>
              </dd>
              <dt>Key</dt>
              <dd>{KEY_WORDS[s.request.key] ?? s.request.key}</dd>
            </>
          )}
          <dt>Window asked</dt>
          <dd>{range(s.window.asked)}</dd>
          <dt>Window answered</dt>
          <dd>{s.window.asked || s.window.answered ? range(s.window.answered) : 'none'}</dd>
          {s.window.support && (
            <>
              <dt>Date filtering</dt>
              <dd>{SUPPORT_WORDS[s.window.support] ?? s.window.support}</dd>
            </>
          )}
          <dt>Pages</dt>
          <dd>{s.pages}</dd>
          <dt>Time</dt>
          <dd>
            {duration(s.timings.ms)} {s.timings.started_at_utc && <span class="muted">from {minute(s.timings.started_at_utc)}</span>}
          </dd>
        </dl>
        <Counts s={s} />
      </div>
      {s.http.length > 0 && (
        <details class="http-log">
          <summary>{s.http.length === 1 ? '1 HTTP exchange' : `${s.http.length} HTTP exchanges`}</summary>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Try</th>
                  <th scope="col">Request</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Time
                  </th>
                  <th scope="col" class="num">
                    Bytes
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.http.map((h, i) => (
                  <tr key={i}>
                    <td>{h.attempt}</td>
                    <td class="url-cell">
                      <code>
                        {h.method} {h.url}
                      </code>
                      {h.error && <p class="cell-note">{h.error}</p>}
                    </td>
                    <td>{h.status ?? '—'}</td>
                    <td class="num">{duration(h.ms)}</td>
                    <td class="num">{h.bytes.toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </section>
  );
}

export function SearchRecordView({ record }: { record: SearchRecord }) {
  const [failed, setFailed] = useState<unknown>(null);
  const e = record.execution;
  return (
    <div class="search-record">
      <div class="record-head">
        <p>
          A {e.type} for <strong>“{e.query}”</strong>
          {e.keywords.length > 0 && <> with keywords {e.keywords.join(', ')}</>}, window {range(e.window_asked)}, up to {e.max_results.toLocaleString()} per source; started{' '}
          {minute(e.started_at_utc)}
          {e.finished_at_utc && <>, ended {minute(e.finished_at_utc)}</>}. Record read {minute(record.recorded_at_utc)}.
        </p>
        <button type="button" class="quiet" onClick={() => runs.downloadSearchRecord(record.execution_id).catch(setFailed)}>
          Save the record (JSON)
        </button>
      </div>
      <ErrorNote error={failed} title="The record was not saved." />
      {record.sources.map((s) => (
        <SourceRecord key={s.source} s={s} />
      ))}
    </div>
  );
}

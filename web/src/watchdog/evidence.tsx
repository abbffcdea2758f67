/**
 * What a finding rests on, as the service gives it: the runs it names (each
 * opens its run page), the other evidence as facts, and the thresholds used.
 * Shapes differ per check; every key is shown, in words.
 */
import { reasonWords } from '../api/errors.js';
import { minute } from '../ui/format.js';

interface RunEvidence {
  execution_id: number;
  started_at_utc?: string;
  zero_reason?: string | null;
  http_status?: number | null;
  message?: string | null;
  result_count?: number;
  new_count?: number;
}

const isRun = (x: unknown): x is RunEvidence => typeof x === 'object' && x !== null && typeof (x as RunEvidence).execution_id === 'number';

/** An evidence key or code as words, capitalised: "failures_in_recent_runs" → "Failures in recent runs". */
const words = (key: string) => reasonWords(key).replace(/^./, (c) => c.toUpperCase());
const isCode = (text: string) => /^[a-z]+(_[a-z]+)+$/.test(text);

function value(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return /^\d{4}-\d\d-\d\dT/.test(v) ? minute(v) : isCode(v) ? reasonWords(v) : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(value).join(', ');
  return Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${reasonWords(k)}: ${value(x)}`)
    .join('; ');
}

function Runs({ runs }: { runs: RunEvidence[] }) {
  return (
    <table class="evidence-runs">
      <caption class="visually-hidden">The runs this finding rests on</caption>
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Started</th>
          <th scope="col">What came back</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.execution_id}>
            <td>
              <a href={`/runs/${r.execution_id}`}>Run {r.execution_id}</a>
            </td>
            <td>{minute(r.started_at_utc)}</td>
            <td>
              {r.zero_reason
                ? `${reasonWords(r.zero_reason)}${r.http_status ? ` (HTTP ${r.http_status})` : ''}${r.message ? ` — ${r.message}` : ''}`
                : `${(r.result_count ?? 0).toLocaleString()} papers, ${(r.new_count ?? 0).toLocaleString()} new`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Evidence({ evidence, thresholds }: { evidence: Record<string, unknown>; thresholds: Record<string, unknown> }) {
  const runLists = Object.entries(evidence).filter(([, v]) => Array.isArray(v) && v.length > 0 && v.every(isRun)) as [string, RunEvidence[]][];
  const single = Object.entries(evidence).filter(([, v]) => isRun(v)) as [string, RunEvidence][];
  const facts = Object.entries(evidence).filter(([k]) => !runLists.some(([r]) => r === k) && !single.some(([r]) => r === k));
  return (
    <details class="evidence">
      <summary>What this rests on</summary>
      {[...runLists, ...single.map(([k, r]): [string, RunEvidence[]] => [k, [r]])].map(([key, runs]) => (
        <div key={key}>
          <p class="evidence-label">{words(key)}</p>
          <Runs runs={runs} />
        </div>
      ))}
      {facts.length > 0 && (
        <dl class="facts compact">
          {facts.map(([k, v]) => [<dt key={`${k}-t`}>{words(k)}</dt>, <dd key={`${k}-d`}>{value(v)}</dd>])}
        </dl>
      )}
      <p class="evidence-label">Thresholds</p>
      <dl class="facts compact">
        {Object.entries(thresholds).map(([k, v]) => [<dt key={`${k}-t`}>{words(k)}</dt>, <dd key={`${k}-d`}>{value(v)}</dd>])}
      </dl>
    </details>
  );
}

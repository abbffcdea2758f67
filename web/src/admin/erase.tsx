/**
 * The danger zone: every erase scope the service has, each saying what it
 * erases and what it keeps (GET /api/admin/erase-scopes), with a typed
 * confirmation of the word the service names. The answer says what went.
 */
import { useState } from 'preact/hooks';
import { admin, type EraseResult, type EraseScopeView } from '../api/admin.js';
import { count } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { noteAdminChange } from './restore-state.js';
import { TypedConfirm } from './typed-confirm.js';

function Erased({ result }: { result: EraseResult }) {
  const rows = Object.values(result.erased.rows).reduce((a, b) => a + b, 0);
  const parts = [count(rows, 'row')];
  if (result.erased.credentials.length) parts.push(`the keys ${result.erased.credentials.join(', ')}`);
  if (result.erased.report_files) parts.push(count(result.erased.report_files, 'report file'));
  return (
    <p class="note note-ok" role="status">
      Erased {parts.join(', ')}. Kept: {result.keeps}.
    </p>
  );
}

function Scope({ scope }: { scope: EraseScopeView }) {
  const [result, setResult] = useState<EraseResult | null>(null);
  return (
    <details class="erase-scope" data-scope={scope.scope}>
      <summary>
        <code>{scope.scope}</code> <span class="muted">erases {scope.erases}</span>
      </summary>
      <TypedConfirm id={`erase-${scope.scope}`} word={scope.confirm} button={`Erase (${scope.scope})`} busyLabel="Erasing…" onConfirm={async (typed) => {
        setResult(null);
        setResult(await admin.erase(scope.scope, typed));
        noteAdminChange();
      }}>
        <dl class="facts">
          <dt>Erases</dt>
          <dd>{scope.erases}</dd>
          <dt>Keeps</dt>
          <dd>{scope.keeps}</dd>
        </dl>
      </TypedConfirm>
      {result && <Erased result={result} />}
    </details>
  );
}

export function EraseSection() {
  const scopes = useResource((signal) => admin.eraseScopes(signal), []);
  return (
    <section class="card admin-section danger-zone" aria-labelledby="erase-heading" id="erase">
      <h2 id="erase-heading">Danger zone</h2>
      <p class="muted">Each of these erases for good: take a backup first. The files in the Library's vault folder are never deleted.</p>
      <ErrorNote error={scopes.error} title="svc could not list what can be erased." />
      {!scopes.data && scopes.loading && <Busy />}
      {scopes.data && scopes.data.scopes.length === 0 && <EmptyState title="svc offers nothing to erase." />}
      {scopes.data && scopes.data.scopes.map((s) => <Scope key={s.scope} scope={s} />)}
    </section>
  );
}

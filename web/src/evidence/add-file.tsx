/**
 * Add Library files to a project: a search of the Library by file name, each
 * result with its short SHA-256 and a button that adds that exact version.
 */
import { useState } from 'preact/hooks';
import type { Member } from '../api/evidence.js';
import { library, shortHash, type LibraryFile } from '../api/library.js';
import { bytes } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

const RESULTS = 10;

export function AddFile({ vaultId, members, onAdd }: { vaultId: string; members: Member[]; onAdd: (f: LibraryFile) => Promise<void> }) {
  const [q, setQ] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const found = useResource((signal) => library.files(vaultId, { q: q || undefined, limit: RESULTS }, signal), [vaultId, q]);
  const inProject = new Set(members.map((m) => m.version_id));
  return (
    <section aria-labelledby="add-file-heading">
      <h3 id="add-file-heading">Add a Library file</h3>
      <div class="field">
        <label for="add-file-q">File name contains</label>
        <input id="add-file-q" type="search" value={q} autocomplete="off" onInput={(e) => setQ((e.target as HTMLInputElement).value)} />
      </div>
      <ErrorNote error={found.error} title="svc could not search the Library." />
      {!found.data && found.loading && <Busy />}
      {found.data && found.data.items.length === 0 && (
        <EmptyState title={q ? `No Library file name contains “${q}”.` : 'The Library holds no file yet.'}>
          <p>
            <a href="/library">Import files in the Library</a>, then add them here.
          </p>
        </EmptyState>
      )}
      {found.data && found.data.items.length > 0 && (
        <ul class="pick-list">
          {found.data.items.map((f) => (
            <li key={f.file_id}>
              <span class="pick-name">{f.original_name}</span>{' '}
              <span class="muted">
                {f.format.toUpperCase()}, {bytes(f.byte_size)}, <code title={f.sha256}>{shortHash(f.sha256)}</code>
              </span>
              {inProject.has(f.version_id) ? (
                <span class="chip chip-ok">in this project</span>
              ) : (
                <button
                  type="button"
                  class="quiet"
                  disabled={busy !== null}
                  aria-label={`Add ${f.original_name} (${shortHash(f.sha256)}) to the project`}
                  onClick={async () => {
                    setBusy(f.file_id);
                    await onAdd(f);
                    setBusy(null);
                  }}
                >
                  Add
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {found.data?.has_more && <p class="muted">More files match: type more of the name.</p>}
    </section>
  );
}

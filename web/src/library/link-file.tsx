/**
 * "Link a Library file" for a paper's page: find a file of the Library by its
 * name and link it to this paper (an owner association, made only when asked;
 * linking twice changes nothing). Mount it with the paper's id:
 * `<LinkLibraryFile documentId={paper.id} />`.
 */
import { useState } from 'preact/hooks';
import { library, shortHash, type LibraryFile } from '../api/library.js';
import { bytes } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { useLibraryStatus } from './status.js';

const RESULTS = 8;

function Finder({ vaultId, documentId }: { vaultId: string; documentId: number }) {
  const [q, setQ] = useState('');
  const [said, setSaid] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const found = useResource((signal) => library.files(vaultId, { q: q || undefined, limit: RESULTS }, signal), [vaultId, q]);
  async function link(f: LibraryFile) {
    setError(null);
    try {
      const receipt = await library.linkPaper(vaultId, f.file_id, documentId);
      setSaid((s) => ({ ...s, [f.file_id]: receipt.created ? 'linked' : 'already linked' }));
    } catch (err) {
      setError(err);
    }
  }
  return (
    <>
      <div class="field">
        <label for={`link-file-q-${documentId}`}>Library file name contains</label>
        <input id={`link-file-q-${documentId}`} type="search" value={q} autocomplete="off" onInput={(e) => setQ((e.target as HTMLInputElement).value)} />
      </div>
      <ErrorNote error={error ?? found.error} title={error ? 'The file was not linked.' : 'svc could not search the Library.'} />
      {!found.data && found.loading && <Busy />}
      {found.data && found.data.items.length === 0 && (
        <EmptyState title={q ? `No Library file name contains “${q}”.` : 'The Library holds no file yet.'}>
          <p>
            <a href="/library">Import the paper's PDF in the Library</a>, then link it here.
          </p>
        </EmptyState>
      )}
      {found.data && found.data.items.length > 0 && (
        <ul class="pick-list">
          {found.data.items.map((f) => (
            <li key={f.file_id}>
              <a class="pick-name" href={`/library?file=${f.file_id}`}>
                {f.original_name}
              </a>{' '}
              <span class="muted">
                {f.format.toUpperCase()}, {bytes(f.byte_size)}, <code title={f.sha256}>{shortHash(f.sha256)}</code>
              </span>
              {said[f.file_id] ? (
                <span class="chip chip-ok" role="status">
                  {said[f.file_id]}
                </span>
              ) : (
                <button type="button" class="quiet" aria-label={`Link ${f.original_name} to this paper`} onClick={() => link(f)}>
                  Link
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function LinkLibraryFile({ documentId }: { documentId: number }) {
  const status = useLibraryStatus();
  const vaultId = status.data?.vault?.vault_id;
  return (
    <section class="paper-section side-card link-library-file" aria-labelledby={`link-file-heading-${documentId}`}>
      <h2 id={`link-file-heading-${documentId}`}>Link a Library file</h2>
      <ErrorNote error={status.error} title="svc could not say what the Library holds." />
      {!status.data && status.loading && <Busy />}
      {status.data && !vaultId && (
        <p class="muted">
          There is no Library vault yet: <a href="/library">create it in the Library</a> and import this paper's PDF, then link it here.
        </p>
      )}
      {vaultId && <Finder vaultId={vaultId} documentId={documentId} />}
    </section>
  );
}

/**
 * The Library: the vault (created here when there is none; whether its folder
 * is reachable, and what to do when it is not), importing files by their
 * bytes with progress, and the file list with search, keyset pages and one
 * file's details and paper links (?file=<file_id>).
 */
import { useState } from 'preact/hooks';
import { place } from '../router.js';
import { FileDetailPanel } from '../library/file-detail.js';
import { FileList, listHref, type ListPlace } from '../library/file-list.js';
import { ImportZone } from '../library/import-zone.js';
import { useLibraryStatus } from '../library/status.js';
import { CreateVault, VaultFacts } from '../library/vault-status.js';
import { Busy, ErrorNote } from '../ui/notes.js';

const whole = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : undefined);

export default function Library() {
  const [generation, setGeneration] = useState(0);
  const status = useLibraryStatus([generation]);
  const changed = () => setGeneration((g) => g + 1);
  const q = place.value.query;
  const at: ListPlace = { q: q.get('q') ?? '', through: whole(q.get('through')), before: whole(q.get('before')), file: q.get('file') ?? undefined };
  const s = status.data;
  return (
    <>
      <header class="page-header">
        <h1>Library</h1>
        <p class="lede">Your own copies of papers and notes (PDF, TXT, MD), kept read-only in one vault, linked to papers and read in evidence projects.</p>
      </header>
      <ErrorNote error={status.error} title="svc could not say what the Library holds." />
      {!s && status.loading && <Busy />}
      {s && !s.vault && <CreateVault onCreated={changed} />}
      {s?.vault && (
        <div class="library-layout">
          <VaultFacts status={s} />
          {s.folder?.reachable !== false && <ImportZone vaultId={s.vault.vault_id} selectionLimit={s.limits.selection_files} onImported={changed} />}
          <FileList vaultId={s.vault.vault_id} at={at} generation={generation} />
          {at.file && <FileDetailPanel key={at.file} vaultId={s.vault.vault_id} fileId={at.file} closeHref={listHref({ ...at, file: undefined })} />}
        </div>
      )}
    </>
  );
}

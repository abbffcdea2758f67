/**
 * Import into the Library: files dropped on the zone or chosen with the
 * picker are sent one after another as their bytes (never a path), each with
 * its progress. The service says what each became: a new copy, the exact
 * bytes already in the Library (its first name and date), or a refusal in its
 * words — type, size, empty.
 */
import { useState } from 'preact/hooks';
import { library, shortHash, type ImportReceipt } from '../api/library.js';
import { bytes, minute } from '../ui/format.js';
import { ErrorNote } from '../ui/notes.js';

interface Upload {
  key: number;
  name: string;
  size: number;
  sent: number;
  receipt: ImportReceipt | null;
  error: unknown;
}

let nextKey = 0;

function UploadRow({ upload }: { upload: Upload }) {
  const done = upload.receipt !== null || upload.error !== null;
  const file = upload.receipt?.file;
  return (
    <li class="upload" data-upload={upload.name}>
      <p class="upload-name">
        <strong>{upload.name}</strong> <span class="muted">{bytes(upload.size)}</span>
      </p>
      {!done && <progress max={upload.size || 1} value={upload.sent} aria-label={`Sending ${upload.name}`} />}
      {upload.receipt?.outcome === 'created' && (
        <p class="note note-ok" role="status">
          Imported as a new Library file (version {shortHash(file!.sha256)}).{' '}
          <a href={`/library?file=${file!.file_id}`}>Show it</a>
        </p>
      )}
      {upload.receipt?.outcome === 'duplicate' && (
        <p class="note note-warn" role="status">
          These exact bytes are already in the Library, as <strong>{file!.original_name}</strong> imported {minute(file!.imported_at_utc)}; nothing new was stored.{' '}
          <a href={`/library?file=${file!.file_id}`}>Show it</a>
        </p>
      )}
      <ErrorNote error={upload.error} title={`${upload.name} was not imported.`} />
    </li>
  );
}

export function ImportZone({ vaultId, selectionLimit, onImported }: { vaultId: string; selectionLimit: number; onImported: () => void }) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const [skipped, setSkipped] = useState(0);
  const [busy, setBusy] = useState(false);

  const patch = (key: number, change: Partial<Upload>) => setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));

  async function send(files: File[]) {
    if (files.length === 0 || busy) return;
    // The service's selection limit: the rest are named, not sent.
    const taken = files.slice(0, selectionLimit);
    setSkipped(files.length - taken.length);
    const rows = taken.map((f) => ({ key: ++nextKey, name: f.name, size: f.size, sent: 0, receipt: null, error: null }));
    setUploads(rows);
    setBusy(true);
    for (const [i, file] of taken.entries()) {
      const key = rows[i]!.key;
      try {
        const { body } = await library.importFile(vaultId, file, (sent) => patch(key, { sent }));
        patch(key, { sent: file.size, receipt: body });
      } catch (err) {
        patch(key, { error: err });
      }
    }
    setBusy(false);
    onImported();
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    void send([...(event.dataTransfer?.files ?? [])]);
  }

  return (
    <section class="card library-import" aria-labelledby="import-heading">
      <h2 id="import-heading">Import files</h2>
      <div
        class={over ? 'drop-zone over' : 'drop-zone'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <p class="drop-title">Drop PDF, TXT or MD files here</p>
        <label for="library-import-input">or choose files to import</label>
        <input
          id="library-import-input"
          type="file"
          multiple
          disabled={busy}
          onChange={(e) => {
            const input = e.target as HTMLInputElement;
            void send([...(input.files ?? [])]);
            input.value = '';
          }}
        />
        <p class="muted">svc keeps a read-only copy of each file's bytes; the original stays where it is.</p>
      </div>
      {skipped > 0 && (
        <p class="note note-warn" role="status">
          svc imports at most {selectionLimit} files at a time: {skipped} more were not sent. Choose them again once these are in.
        </p>
      )}
      {uploads.length > 0 && (
        <ul class="uploads" aria-label="Files sent">
          {uploads.map((u) => (
            <UploadRow key={u.key} upload={u} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * One Library file: what the catalog records of it (the exact version and its
 * SHA-256; different bytes are a different file, so there is no version chain)
 * and its paper links, with a form that links it to one more paper by id.
 */
import { useState } from 'preact/hooks';
import { itemsFor } from '../api/errors.js';
import { library, type FileDetail } from '../api/library.js';
import { bytes, minute } from '../ui/format.js';
import { Busy, ErrorNote, FieldError } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

function LinkToPaper({ vaultId, fileId, onLinked }: { vaultId: string; fileId: string; onLinked: () => void }) {
  const [paper, setPaper] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState<string | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    setSaid(null);
    try {
      // The service judges the id: a word or a fraction goes as it was typed and comes back refused.
      const id = /^\d+$/.test(paper.trim()) ? Number(paper.trim()) : paper;
      const receipt = await library.linkPaper(vaultId, fileId, id);
      setSaid(receipt.created ? `Linked to paper ${receipt.link.document_id}.` : `Already linked to paper ${receipt.link.document_id}.`);
      setPaper('');
      onLinked();
    } catch (err) {
      setError(err);
    }
  }
  const beside = itemsFor(error, 'document_id').map((i) => i.msg);
  return (
    <form class="inline-form" onSubmit={submit} noValidate>
      <label for="link-paper-id">Link to paper (its id)</label>
      <input id="link-paper-id" inputMode="numeric" size={8} value={paper} onInput={(e) => setPaper((e.target as HTMLInputElement).value)} aria-invalid={beside.length > 0} aria-describedby={beside.length ? 'link-paper-id-error' : undefined} />
      <button type="submit" class="quiet">
        Link
      </button>
      <FieldError id="link-paper-id-error" messages={beside} />
      {beside.length === 0 && <ErrorNote error={error} title="The link was not made." />}
      {said && (
        <p class="note note-ok" role="status">
          {said}
        </p>
      )}
    </form>
  );
}

function Facts({ detail }: { detail: FileDetail }) {
  const f = detail.file;
  return (
    <dl class="facts">
      <dt>Kind</dt>
      <dd>
        {f.format.toUpperCase()} ({f.media_type}), {bytes(f.byte_size)}
      </dd>
      <dt>Imported</dt>
      <dd>{minute(f.imported_at_utc)}</dd>
      <dt>SHA-256</dt>
      <dd>
        <code>{f.sha256}</code>
      </dd>
      <dt>File id</dt>
      <dd>
        <code>{f.file_id}</code>
      </dd>
      <dt>Version id</dt>
      <dd>
        <code>{f.version_id}</code>
      </dd>
    </dl>
  );
}

export function FileDetailPanel({ vaultId, fileId, closeHref }: { vaultId: string; fileId: string; closeHref: string }) {
  const detail = useResource((signal) => library.file(vaultId, fileId, signal), [vaultId, fileId]);
  const d = detail.data;
  return (
    <section class="card library-file" aria-labelledby="file-heading">
      <div class="page-header-row">
        <h2 id="file-heading">{d ? d.file.original_name : 'File'}</h2>
        <a class="button quiet" href={closeHref}>
          Close
        </a>
      </div>
      <ErrorNote error={detail.error} title="svc could not show this file." />
      {!d && detail.loading && <Busy />}
      {d && (
        <>
          <Facts detail={d} />
          <h3>Papers</h3>
          {d.paper_links.length === 0 ? (
            <p class="muted">Not linked to any paper. Link it below, or from a paper's page.</p>
          ) : (
            <ul class="plain-list">
              {d.paper_links.map((l) => (
                <li key={l.document_id}>
                  <a href={`/papers/${l.document_id}`}>Paper {l.document_id}</a> <span class="muted">linked {minute(l.linked_at_utc)}</span>
                </li>
              ))}
            </ul>
          )}
          <LinkToPaper vaultId={vaultId} fileId={fileId} onLinked={detail.reload} />
          <p class="muted">
            To read it and make notes, add it to an <a href="/evidence">evidence project</a>.
          </p>
        </>
      )}
    </section>
  );
}

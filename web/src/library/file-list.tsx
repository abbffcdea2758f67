/**
 * The Library's files, newest first, as the service pages them: a search by
 * file name (the service's literal substring match), and keyset pages under
 * the ceiling of the first page (files imported meanwhile never shift a
 * page; "Newest files" starts a new ceiling). The address holds it all, so a
 * page of the list can be reloaded.
 */
import { library, shortHash, type LibraryFile } from '../api/library.js';
import { href, navigate } from '../router.js';
import { moveThroughRows } from '../ui/arrow-list.js';
import { bytes, minute } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

export interface ListPlace {
  q: string;
  through?: number;
  before?: number;
  file?: string;
}

export const listHref = (p: ListPlace) => href('/library', { q: p.q, through: p.through, before: p.before, file: p.file });

function Row({ file, at, selected }: { file: LibraryFile; at: ListPlace; selected: boolean }) {
  return (
    <tr aria-current={selected ? 'true' : undefined} class={selected ? 'selected' : undefined}>
      <td>
        <a href={listHref({ ...at, file: file.file_id })} data-row-link>
          {file.original_name}
        </a>
      </td>
      <td>{file.format.toUpperCase()}</td>
      <td class="num">{bytes(file.byte_size)}</td>
      <td>
        <code title={file.sha256}>{shortHash(file.sha256)}</code>
      </td>
      <td>
        <time dateTime={file.imported_at_utc}>{minute(file.imported_at_utc)}</time>
      </td>
    </tr>
  );
}

export function FileList({ vaultId, at, generation }: { vaultId: string; at: ListPlace; generation: number }) {
  const list = useResource((signal) => library.files(vaultId, { q: at.q || undefined, throughId: at.through, beforeId: at.before }, signal), [vaultId, at.q, at.through, at.before, generation]);
  const data = list.data;
  const search = (q: string) => navigate(listHref({ q, file: at.file }), { replace: true });
  return (
    <section class="library-files" aria-labelledby="files-heading">
      <h2 id="files-heading">Files</h2>
      <form class="filters" role="search" aria-label="Search the Library" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="library-q">File name contains</label>
          <input id="library-q" type="search" value={at.q} data-search-field autocomplete="off" onInput={(e) => search((e.target as HTMLInputElement).value)} />
        </div>
      </form>
      <ErrorNote error={list.error} title="svc could not list the Library's files." />
      {!data && list.loading && <Busy />}
      {data && data.items.length === 0 && (
        <EmptyState title={at.q ? `No file name contains “${at.q}”.` : at.before ? 'No older files.' : 'The Library holds no file yet.'}>
          {at.q ? (
            <p>
              <a href="/library">Show every file</a>, or import the file above.
            </p>
          ) : (
            <p>Import PDF, TXT or MD files above: drop them on the box or choose them.</p>
          )}
        </EmptyState>
      )}
      {data && data.items.length > 0 && (
        <>
          <div class="table-wrap" onKeyDown={moveThroughRows}>
            <table class="library-table">
              <caption class="visually-hidden">Library files, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col" class="num">
                    Size
                  </th>
                  <th scope="col">Version (SHA-256)</th>
                  <th scope="col">Imported</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((f) => (
                  <Row key={f.file_id} file={f} at={at} selected={f.file_id === at.file} />
                ))}
              </tbody>
            </table>
          </div>
          <nav class="pager" aria-label="Pages of files">
            {at.before !== undefined && (
              <a class="button quiet" href={listHref({ q: at.q, file: at.file })}>
                Newest files
              </a>
            )}
            {data.has_more && (
              <a class="button quiet" href={listHref({ q: at.q, through: data.through_id, before: data.next_before_id!, file: at.file })}>
                Older files
              </a>
            )}
          </nav>
        </>
      )}
    </section>
  );
}

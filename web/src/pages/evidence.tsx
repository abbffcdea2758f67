/**
 * Evidence projects: every project of the vault (oldest first, as the service
 * pages them) and a form that creates one. A project joins exact Library file
 * versions with their notes; its page is /evidence/<project_id>.
 */
import { useState } from 'preact/hooks';
import { evidence, type Project } from '../api/evidence.js';
import { navigate } from '../router.js';
import { useLibraryStatus } from '../library/status.js';
import { nameRefusals } from '../evidence/name-refusals.js';
import { VaultNeeded } from '../evidence/vault-needed.js';
import { moveThroughRows } from '../ui/arrow-list.js';
import { minute } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote, FieldError } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

function CreateProject({ vaultId }: { vaultId: string }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { project } = await evidence.create(vaultId, name);
      navigate(`/evidence/${project.project_id}`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }
  const beside = nameRefusals(error);
  return (
    <form class="inline-form" onSubmit={submit} noValidate aria-label="Create a project">
      <label for="project-name">New project</label>
      <input id="project-name" value={name} maxLength={400} autocomplete="off" onInput={(e) => setName((e.target as HTMLInputElement).value)} aria-invalid={beside.length > 0} aria-describedby={beside.length ? 'project-name-error' : undefined} />
      <button type="submit" disabled={busy}>
        Create project
      </button>
      <FieldError id="project-name-error" messages={beside} />
      {beside.length === 0 && <ErrorNote error={error} title="The project was not created." />}
    </form>
  );
}

function ProjectList({ vaultId }: { vaultId: string }) {
  const [pages, setPages] = useState<{ afterId?: number; throughId?: number }>({});
  const list = useResource((signal) => evidence.projects(vaultId, pages, signal), [vaultId, pages.afterId]);
  const [shown, setShown] = useState<Project[]>([]);
  const data = list.data;
  const rows = pages.afterId ? [...shown, ...(data?.items ?? [])] : (data?.items ?? []);
  return (
    <section aria-labelledby="projects-heading">
      <h2 id="projects-heading">Projects</h2>
      <ErrorNote error={list.error} title="svc could not list the projects." />
      {!data && list.loading && <Busy />}
      {data && rows.length === 0 && (
        <EmptyState title="No evidence project yet.">
          <p>Name one above; then add Library files to it, read them and make notes anchored to their text.</p>
        </EmptyState>
      )}
      {rows.length > 0 && (
        <div class="table-wrap" onKeyDown={moveThroughRows}>
          <table>
            <caption class="visually-hidden">Evidence projects</caption>
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col" class="num">
                  Revision
                </th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <tr key={p.project_id}>
                  <td>
                    <a href={`/evidence/${p.project_id}`} data-row-link>
                      {p.name}
                    </a>
                  </td>
                  <td class="num">{p.revision}</td>
                  <td>
                    <time dateTime={p.updated_at_utc}>{minute(p.updated_at_utc)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data?.has_more && (
        <nav class="pager" aria-label="More projects">
          <button
            type="button"
            class="quiet"
            onClick={() => {
              setShown(rows);
              setPages({ afterId: data.next_after_id!, throughId: data.through_id });
            }}
          >
            More projects ({data.total - rows.length} more)
          </button>
        </nav>
      )}
    </section>
  );
}

export default function Evidence() {
  const status = useLibraryStatus();
  const vaultId = status.data?.vault?.vault_id;
  return (
    <>
      <header class="page-header">
        <h1>Evidence projects</h1>
        <p class="lede">Sets of exact Library file versions with your notes, each anchored to the text it quotes, to read and to ask about.</p>
      </header>
      {vaultId ? (
        <>
          <CreateProject vaultId={vaultId} />
          <ProjectList vaultId={vaultId} />
        </>
      ) : (
        <VaultNeeded status={status} />
      )}
    </>
  );
}

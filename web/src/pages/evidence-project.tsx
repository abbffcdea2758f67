/**
 * One evidence project: its name (renamed here), its files — each the exact
 * version it was added as — and its notes. Every change carries the revision
 * this page read; when the project changed meanwhile (another tab, the CLI)
 * the service's conflict is shown and the page reads the project again, so
 * nothing is overwritten unseen. The reader and the answers are their own
 * pages, linked from here.
 */
import { useState } from 'preact/hooks';
import { evidence, isRevisionConflict, type Member, type Project } from '../api/evidence.js';
import { library, type LibraryFile } from '../api/library.js';
import type { PageProps } from '../routes.js';
import { AddFile } from '../evidence/add-file.js';
import { loadAll } from '../evidence/load-all.js';
import { Members } from '../evidence/members.js';
import { NotesList } from '../evidence/notes-list.js';
import { RenameProject } from '../evidence/rename.js';
import { VaultNeeded } from '../evidence/vault-needed.js';
import { useLibraryStatus } from '../library/status.js';
import { count, minute } from '../ui/format.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

function Conflict({ error, project }: { error: unknown; project: Project | undefined }) {
  if (!error) return null;
  return (
    <div class="note note-warn" role="alert">
      <strong class="note-title">This project changed since the page read it, so your change was not made.</strong>
      <p>{(error as Error).message}</p>
      <p class="note-reason">svc's reason: revision conflict</p>
      {project && <p>The page now shows the project as it is (revision {project.revision}); make your change again if you still want it.</p>}
    </div>
  );
}

function ProjectView({ vaultId, projectId }: { vaultId: string; projectId: string }) {
  const [generation, setGeneration] = useState(0);
  const [conflict, setConflict] = useState<unknown>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const reload = () => setGeneration((g) => g + 1);
  const shown = useResource((signal) => evidence.show(vaultId, projectId, signal), [vaultId, projectId, generation]);
  const members = useResource((signal) => loadAll((at) => evidence.members(vaultId, projectId, at, signal)), [vaultId, projectId, generation]);
  const notes = useResource((signal) => loadAll((at) => evidence.notes(vaultId, projectId, at, signal)), [vaultId, projectId, generation]);
  const project = shown.data?.project;
  // Notes of files removed from the project are kept: their names come from the Library's records.
  const away = [...new Set((notes.data ?? []).map((n) => n.file_id).filter((id) => !(members.data ?? []).some((m) => m.file_id === id)))];
  const awayNames = useResource(
    async (signal) => Object.fromEntries(await Promise.all(away.map(async (id) => [id, (await library.file(vaultId, id, signal)).file.original_name] as const))),
    [vaultId, away.join(',')],
  );

  /** Send one change with the revision read; a stale one is the service's conflict, then everything is read again. */
  async function change(send: (p: Project) => Promise<unknown>) {
    if (!project) return;
    setFailed(null);
    setConflict(null);
    try {
      await send(project);
    } catch (err) {
      if (isRevisionConflict(err)) setConflict(err);
      else setFailed(err);
    }
    reload();
  }

  if (shown.error && !project) return <ErrorNote error={shown.error} title="svc could not show this project." />;
  if (!project) return <Busy />;
  const rows: Member[] = members.data ?? [];
  return (
    <>
      <header class="page-header page-header-row">
        <div>
          <p class="breadcrumb">
            <a href="/evidence">Evidence projects</a>
          </p>
          <h1>{project.name}</h1>
          <p class="lede">
            {count(shown.data!.counts.files, 'file')}, {count(shown.data!.counts.notes, 'note')}; revision {project.revision}, changed {minute(project.updated_at_utc)}.
          </p>
        </div>
        <a class="button" href={`/evidence/${project.project_id}/answers`}>
          Ask about the evidence
        </a>
      </header>
      <Conflict error={conflict} project={conflict ? project : undefined} />
      <RenameProject
        key={`${project.revision}:${project.name}`}
        vaultId={vaultId}
        project={project}
        onChanged={reload}
        onConflict={(err) => {
          setConflict(err);
          reload();
        }}
      />
      <section class="evidence-section" aria-labelledby="members-heading">
        <h2 id="members-heading">Files</h2>
        <ErrorNote error={failed} title="The files of the project were not changed." />
        <ErrorNote error={members.error} title="svc could not list the project's files." />
        {!members.data && members.loading ? <Busy /> : <Members project={project} members={rows} onRemove={(m) => change((p) => evidence.remove(vaultId, p, m))} />}
        <AddFile vaultId={vaultId} members={rows} onAdd={(f: LibraryFile) => change((p) => evidence.add(vaultId, p, f))} />
      </section>
      <section class="evidence-section" aria-labelledby="notes-heading">
        <h2 id="notes-heading">Notes</h2>
        <ErrorNote error={notes.error} title="svc could not list the project's notes." />
        {!notes.data && notes.loading ? <Busy /> : <NotesList projectId={project.project_id} notes={notes.data ?? []} members={rows} names={awayNames.data ?? {}} />}
      </section>
    </>
  );
}

export default function EvidenceProject({ params }: PageProps) {
  const status = useLibraryStatus();
  const vaultId = status.data?.vault?.vault_id;
  return vaultId ? <ProjectView vaultId={vaultId} projectId={params.project!} /> : <VaultNeeded status={status} />;
}

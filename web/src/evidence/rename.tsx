/**
 * Rename a project: sent with the revision the page read. A stale revision is
 * the service's conflict, which the project page shows and answers by reading
 * the project again — the name typed here is never forced over a newer one.
 */
import { useState } from 'preact/hooks';
import { evidence, isRevisionConflict, type Project } from '../api/evidence.js';
import { ErrorNote, FieldError } from '../ui/notes.js';
import { nameRefusals } from './name-refusals.js';

export function RenameProject({ vaultId, project, onChanged, onConflict }: { vaultId: string; project: Project; onChanged: () => void; onConflict: (err: unknown) => void }) {
  const [name, setName] = useState(project.name);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await evidence.rename(vaultId, project, name);
      onChanged();
    } catch (err) {
      if (isRevisionConflict(err)) onConflict(err);
      else setError(err);
    } finally {
      setBusy(false);
    }
  }
  const beside = nameRefusals(error);
  return (
    <form class="inline-form" onSubmit={submit} noValidate aria-label="Rename the project">
      <label for="project-rename">Name</label>
      <input id="project-rename" value={name} autocomplete="off" onInput={(e) => setName((e.target as HTMLInputElement).value)} aria-invalid={beside.length > 0} aria-describedby={beside.length ? 'project-rename-error' : undefined} />
      <button type="submit" class="quiet" disabled={busy || name === project.name}>
        Rename
      </button>
      <FieldError id="project-rename-error" messages={beside} />
      {beside.length === 0 && <ErrorNote error={error} title="The project was not renamed." />}
    </form>
  );
}

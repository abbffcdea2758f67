/** What an Evidence page says while the Library has no vault, or its status cannot be read. */
import type { Resource } from '../ui/use-resource.js';
import type { LibraryStatusWithFolder } from '../api/library.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';

export function VaultNeeded({ status }: { status: Resource<LibraryStatusWithFolder> }) {
  if (status.error) return <ErrorNote error={status.error} title="svc could not say what the Library holds." />;
  if (!status.data) return <Busy />;
  return (
    <EmptyState title="Evidence projects hold Library files, and there is no Library vault yet.">
      <p>
        <a href="/library">Create the vault in the Library</a> and import the files you want to read; then come back to make a project.
      </p>
    </EmptyState>
  );
}

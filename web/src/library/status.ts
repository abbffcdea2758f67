/**
 * The Library's status for the pages that need the vault: its id goes with
 * every Library and Evidence request as expected_vault_id. Read once per page
 * visit; a page that changes the Library calls `reload`.
 */
import { library, type LibraryStatusWithFolder } from '../api/library.js';
import { useResource, type Resource } from '../ui/use-resource.js';

export function useLibraryStatus(deps: unknown[] = []): Resource<LibraryStatusWithFolder> {
  return useResource((signal) => library.status(signal), deps);
}

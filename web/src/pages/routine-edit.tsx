/**
 * A new routine (/routines/new, ?config=<id> starts from a saved
 * configuration, ?profile=<id> follows that person: the People page links
 * there) and an edit of one (/routines/<id>/edit): the routine form, filled
 * from what the service stored.
 */
import { api } from '../api/client.js';
import { routines } from '../api/routines.js';
import type { ConfigurationList } from '../api/types.js';
import type { PageProps } from '../routes.js';
import { place } from '../router.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { applyParameters, EMPTY_ROUTINE, formFromRoutine } from '../routines/form.js';
import { RoutineFormView } from '../routines/routine-form.js';

export default function RoutineEdit({ params }: PageProps) {
  const id = params.id ? Number(params.id) : null;
  const configId = Number(place.value.query.get('config')) || null;
  const profileId = id === null ? Number(place.value.query.get('profile')) || null : null;
  const routine = useResource((signal) => (id === null ? Promise.resolve(null) : routines.get(id, signal)), [id]);
  const config = useResource(
    (signal) => (configId === null ? Promise.resolve(null) : api.get<ConfigurationList>('/api/configurations', { signal }).then((a) => a.configurations.find((c) => c.id === configId) ?? null)),
    [configId],
  );
  const ready = !routine.loading && !config.loading && !routine.error;
  let initial = routine.data ? formFromRoutine(routine.data) : EMPTY_ROUTINE;
  if (config.data) initial = applyParameters(initial, config.data.parameters, config.data.id);
  if (profileId !== null) initial = { ...initial, followProfile: String(profileId) };
  return (
    <>
      <nav class="breadcrumb" aria-label="Breadcrumb">
        <a href="/routines">Routines</a>
        {routine.data && (
          <>
            {' › '}
            <a href={`/routines/${routine.data.id}`}>{routine.data.name}</a>
          </>
        )}
      </nav>
      <header class="page-header">
        <h1>{id === null ? 'New routine' : `Edit “${routine.data?.name ?? '…'}”`}</h1>
        <p class="lede">A saved search that svc runs on a schedule while the daemon runs, and whenever you ask.</p>
      </header>
      <ErrorNote error={routine.error} title="svc could not read this routine." />
      {config.data && <p class="note note-ok">Started from the saved configuration “{config.data.name}”: change anything before saving.</p>}
      {ready ? <RoutineFormView key={`${id}-${configId}-${profileId}`} id={id} initial={initial} /> : !routine.error && <Busy />}
    </>
  );
}

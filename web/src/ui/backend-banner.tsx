/**
 * What the page is attached to. A fallback backend (the window started svc
 * for itself because no daemon ran) has no scheduler, by spec: routines fire
 * only while the daemon runs, so the banner offers to start it (a shell
 * action) and re-attaches to it.
 */
import { signal } from '@preact/signals';
import { renewSession, session, shellAction } from '../session.js';
import { ErrorNote } from './notes.js';

const starting = signal(false);
const failure = signal<unknown>(null);

async function startDaemon(): Promise<void> {
  starting.value = true;
  failure.value = null;
  try {
    await shellAction('daemon/start');
    await renewSession();
  } catch (err) {
    failure.value = err;
  } finally {
    starting.value = false;
  }
}

export function BackendBanner() {
  const current = session.value;
  if (!current || current.role !== 'fallback') return null;
  return (
    <aside class="banner" aria-label="Backend">
      <p>
        This window started svc for itself: <strong>scheduled routines run only while the background daemon runs</strong>. Runs you start here work
        either way.
      </p>
      <button type="button" onClick={startDaemon} disabled={starting.value}>
        {starting.value ? 'Starting the daemon…' : 'Start the daemon'}
      </button>
      <ErrorNote error={failure.value} title="The daemon did not start." />
    </aside>
  );
}

/**
 * The paper's place in the reading queue, and the three things to do with it:
 * save it, mark it read or unread, take it off the queue (the paper stays in
 * the corpus). What the page shows is what the service answered last.
 */
import { useEffect, useState } from 'preact/hooks';
import { readingQueue, type QueueEntry } from '../api/queue.js';
import { minute } from '../ui/format.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

export function QueueStatus({ id }: { id: number }) {
  const loaded = useResource((signal) => readingQueue.entry(id, signal), [id]);
  const [entry, setEntry] = useState<QueueEntry | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => setEntry(loaded.data), [loaded.data]);

  async function act(action: () => Promise<QueueEntry | null>) {
    setBusy(true);
    setError(null);
    try {
      setEntry(await action());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const save = () => act(() => readingQueue.save(id));
  const mark = (status: QueueEntry['status']) => act(() => readingQueue.move(id, status));
  const remove = () => act(() => readingQueue.remove(id).then(() => null));

  let body;
  if (entry === undefined) body = loaded.error ? null : <Busy />;
  else if (entry === null)
    body = (
      <>
        <p class="queue-state">Not in your reading queue.</p>
        <button type="button" onClick={save} disabled={busy}>
          Save to read later
        </button>
      </>
    );
  else
    body = (
      <>
        <p class="queue-state">
          {entry.status === 'read' ? (
            <>
              <span class="chip chip-ok">Read</span> {minute(entry.read_at_utc)}
            </>
          ) : (
            <>
              <span class="chip chip-warn">To read</span> saved {minute(entry.saved_at_utc)}
            </>
          )}
        </p>
        <div class="button-row">
          {entry.status === 'unread' ? (
            <button type="button" onClick={() => mark('read')} disabled={busy}>
              Mark read
            </button>
          ) : (
            <button type="button" class="quiet" onClick={() => mark('unread')} disabled={busy}>
              Mark unread
            </button>
          )}
          <button type="button" class="quiet" onClick={remove} disabled={busy}>
            Remove from queue
          </button>
        </div>
      </>
    );
  return (
    <section class="paper-section side-card" aria-labelledby="queue-heading">
      <h2 id="queue-heading">Reading queue</h2>
      <div aria-live="polite">{body}</div>
      <ErrorNote error={loaded.error ?? error} title={loaded.error ? 'The reading queue could not be read.' : 'svc refused.'} />
    </section>
  );
}

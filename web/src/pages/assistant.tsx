/**
 * The assistant (`/assistant`, one conversation at `?c=<id>`): saved
 * conversations listed newest first and searched by title; a new
 * conversation bound to the connection, model and effort picked from the
 * service's composer choices; a conversation's turns as they stream.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { assistant, type Choices, type ConversationRow } from '../api/assistant.js';
import { ChoicesPicker, initialChoices } from '../assistant/choices-picker.js';
import { Conversation } from '../assistant/conversation.js';
import { href, navigate, place, replaceParam } from '../router.js';
import { moveThroughRows } from '../ui/arrow-list.js';
import { relative } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

function List({ q, current }: { q: string; current: number | null }) {
  const { data, error, loading } = useResource((signal) => assistant.browse(q, undefined, undefined, signal), [q, current]);
  const [more, setMore] = useState<{ rows: ConversationRow[]; next: number | null }>({ rows: [], next: null });
  useEffect(() => setMore({ rows: [], next: data?.next_before_id ?? null }), [data]);
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '/' && !(e.target as HTMLElement).closest('input, textarea, select')) {
        e.preventDefault();
        search.current?.focus();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  const loadMore = async () => setMore({ rows: [...more.rows, ...(await assistant.browse(q, more.next ?? undefined, data?.through_id)).sessions], next: null });
  const rows = [...(data?.sessions ?? []), ...more.rows];
  return (
    <nav class="conversations" aria-label="Conversations">
      <a class="button" href="/assistant">
        New conversation
      </a>
      <div class="field">
        <label for="conversation-search">Search titles</label>
        <input id="conversation-search" ref={search} type="search" value={q} onInput={(e) => replaceParam('q', (e.target as HTMLInputElement).value)} />
      </div>
      {loading && !data && <Busy />}
      <ErrorNote error={error} />
      {data && rows.length === 0 && <EmptyState title={q ? 'No conversation has that in its title' : 'No conversations yet'}>{q ? 'Clear the search to see them all.' : 'Start one with “New conversation”.'}</EmptyState>}
      <ul class="conversation-list" onKeyDown={moveThroughRows}>
        {rows.map((r) => (
          <li key={r.id}>
            <a data-row-link href={href('/assistant', { c: r.id, q: q || undefined })} aria-current={r.id === current ? 'page' : undefined}>
              {r.display_title}
            </a>
            <span class="muted small">
              {' '}
              {r.message_count} messages · {relative(r.updated_at_utc)}
            </span>
          </li>
        ))}
      </ul>
      {(more.next ?? (more.rows.length === 0 ? data?.next_before_id : null)) != null && (
        <button type="button" onClick={loadMore}>
          Show older
        </button>
      )}
    </nav>
  );
}

function NewConversation() {
  const { data, error, loading } = useResource((signal) => assistant.status(signal), []);
  const [choices, setChoices] = useState<Choices | null>(null);
  const [title, setTitle] = useState('');
  const [failed, setFailed] = useState<unknown>(null);
  if (loading && !data) return <Busy />;
  if (!data) return <ErrorNote error={error} />;
  const value = choices ?? initialChoices(data.composer_choices);
  const start = async (e: Event) => {
    e.preventDefault();
    try {
      const created = await assistant.create(value, title.trim() || null);
      navigate(href('/assistant', { c: created.session.id }));
    } catch (err) {
      setFailed(err);
    }
  };
  return (
    <form class="new-conversation card" onSubmit={start} aria-labelledby="new-title">
      <h2 id="new-title">New conversation</h2>
      <p class="muted">A conversation keeps the connection, model and effort it starts with; to change them, start another.</p>
      {!data.can_run && data.reason && <p class="note">The default connection cannot run here: {data.reason}</p>}
      <div class="field">
        <label for="conversation-title">Title (optional)</label>
        <input id="conversation-title" value={title} onInput={(e) => setTitle((e.target as HTMLInputElement).value)} />
      </div>
      <ChoicesPicker id="new-choices" composer={data.composer_choices} value={value} onChange={setChoices} />
      <ul class="muted small">
        {data.composer_choices.limitations.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
      <div class="form-actions">
        <button type="submit">
          Start the conversation
        </button>
      </div>
      <ErrorNote error={failed} title="svc refused" />
    </form>
  );
}

function Open({ id }: { id: number }) {
  const { data, error, loading, reload } = useResource((signal) => assistant.show(id, signal), [id]);
  if (loading && !data) return <Busy label="Reading the conversation…" />;
  if (!data) return <ErrorNote error={error} />;
  return <Conversation key={id} detail={data} reload={reload} />;
}

export default function AssistantPage() {
  const c = Number(place.value.query.get('c')) || null;
  const q = place.value.query.get('q') ?? '';
  return (
    <section class="page assistant-page" aria-labelledby="page-title">
      <header class="page-header">
        <h1 id="page-title">Assistant</h1>
      </header>
      <div class="assistant-layout">
        <List q={q} current={c} />
        <div class="assistant-main">{c ? <Open id={c} /> : <NewConversation />}</div>
      </div>
    </section>
  );
}

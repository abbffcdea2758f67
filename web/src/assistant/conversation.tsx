/**
 * One conversation: its bound connection, model and effort, its saved
 * messages with their tool calls and the models each turn's responses
 * reported, the turn streaming now (text, tool use, permission requests to
 * allow or deny, cancel), the next message, and the exports.
 */
import { useState } from 'preact/hooks';
import { assistant, type Conversation as Detail, type Message } from '../api/assistant.js';
import { saveText } from '../api/download.js';
import { reasonWords } from '../api/errors.js';
import { minute } from '../ui/format.js';
import { useLeaveGuard } from '../ui/leave-guard.js';
import { EmptyState, ErrorNote } from '../ui/notes.js';
import { PermissionPrompt } from './permission.js';
import { useTurn, type TurnState } from './turn.js';

const json = (v: unknown) => JSON.stringify(v, null, 2);

function ToolUse({ message }: { message: Message }) {
  const calls = (message.tool_calls.data as { id: string; name: string; input: unknown }[] | null) ?? [];
  const results = (message.tool_results.data as { callId: string; name: string; output: unknown; isError: boolean }[] | null) ?? [];
  if (message.tool_calls.unreadable || message.tool_results.unreadable) return <p class="muted">The saved tool record cannot be read.</p>;
  return (
    <>
      {calls.map((c) => (
        <details class="tool-use" key={c.id}>
          <summary>Used the tool {c.name}</summary>
          <pre>{json(c.input)}</pre>
        </details>
      ))}
      {results.map((r) => (
        <details class="tool-use" key={r.callId}>
          <summary>
            {r.name} answered{r.isError ? ' with an error' : ''}
          </summary>
          <pre>{json(r.output)}</pre>
        </details>
      ))}
    </>
  );
}

function Messages({ detail }: { detail: Detail }) {
  const reports = new Map(detail.turn_choices.filter((t) => t.assistant_message_id !== null).map((t) => [t.assistant_message_id!, t.reports]));
  if (detail.messages.length === 0) return <EmptyState title="No messages yet">Write the first one below.</EmptyState>;
  return (
    <ol class="messages">
      {detail.messages.map((m) => (
        <li key={m.id} class={`message message-${m.role}`}>
          <p class="message-head">
            <strong>{m.role === 'user' ? 'You' : m.role === 'assistant' ? 'Assistant' : 'Tools'}</strong> <span class="muted small">{minute(m.created_at_utc)}</span>
            {(reports.get(m.id) ?? []).map((r) => (
              <span key={r.sequence} class="muted small">
                {' '}
                · the response said {r.model}
              </span>
            ))}
          </p>
          {m.content && <p class="message-text">{m.content}</p>}
          <ToolUse message={m} />
        </li>
      ))}
    </ol>
  );
}

function LiveTurn({ turn, onCancel }: { turn: TurnState; onCancel: () => void }) {
  return (
    <section class="card live-turn" aria-labelledby="live-turn-title">
      <h3 id="live-turn-title">{turn.status === 'streaming' ? 'The assistant is answering' : `The turn ${turn.status === 'completed' ? 'ended' : turn.status}`}</h3>
      <p class="message-text user-sent">You: {turn.sent}</p>
      {turn.models.length > 0 && <p class="muted small">The response said it is {turn.models.join(', then ')}.</p>}
      {turn.steps.map((s, i) => (
        <details class="tool-use" key={i} open>
          <summary>{s.kind === 'tool_call' ? `Using the tool ${s.name}` : `${s.name} answered${s.is_error ? ' with an error' : ''}`}</summary>
          <pre>{json(s.kind === 'tool_call' ? s.input : s.output)}</pre>
        </details>
      ))}
      {turn.permissions.map((p) => (
        <PermissionPrompt key={p.request_id} ask={p} />
      ))}
      <p class="message-text" aria-live="off">
        {turn.text || (turn.status === 'streaming' ? '…' : '')}
      </p>
      {turn.error && (
        <div class="note note-error" role="alert">
          <p>{turn.error.message}</p>
          <p class="note-reason">svc's reason: {reasonWords(turn.error.reason)}</p>
        </div>
      )}
      <ErrorNote error={turn.trouble} />
      {turn.status === 'streaming' && (
        <button type="button" class="danger" onClick={onCancel}>
          Cancel the turn
        </button>
      )}
    </section>
  );
}

export function Conversation({ detail, reload }: { detail: Detail; reload: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const { turn, send, setTurn } = useTurn(() => reload());
  const streaming = turn?.status === 'streaming';
  useLeaveGuard(streaming, 'The assistant is still answering. Leaving this page cancels the turn. Leave anyway?');
  const c = detail.choices;
  const submit = (e: Event) => {
    e.preventDefault();
    if (!text.trim()) return;
    setError(null);
    send(detail.session.id, text);
    setText('');
  };
  const cancel = async () => {
    try {
      const r = await assistant.cancel(detail.session.id);
      setTurn((t) => (t ? { ...t, status: r.outcome === 'no_active_turn' ? t.status : 'cancelled' } : t));
    } catch (err) {
      setError(err);
    }
  };
  const exportAs = async (format: 'json' | 'markdown') => {
    try {
      const e = await assistant.export(detail.session.id, format);
      saveText(e.filename, e.content_type, e.text);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div class="conversation">
      <header class="conversation-head">
        <h2>{detail.session.display_title}</h2>
        <p class="muted">
          {c === null ? 'Settings from before conversations were bound: unknown.' : 'unreadable' in c ? 'Its saved settings cannot be read.' : `${c.runtime === 'agent_cli' ? 'Agent CLI' : 'API key'} · ${c.provider} · model ${c.model ?? 'default'} · effort ${c.effort ?? 'default'}`}
        </p>
        <div class="form-actions">
          <button type="button" class="quiet" onClick={() => exportAs('json')}>
            Export as JSON
          </button>
          <button type="button" class="quiet" onClick={() => exportAs('markdown')}>
            Export as Markdown
          </button>
        </div>
      </header>
      {(detail.messages.length > 0 || !turn) && <Messages detail={detail} />}
      {turn && !(turn.status === 'completed' && !turn.error && detail.messages.some((m) => m.role === 'assistant' && m.content === turn.text)) && <LiveTurn turn={turn} onCancel={cancel} />}
      <form class="composer" onSubmit={submit}>
        <label for="message-text">Message</label>
        <textarea id="message-text" rows={3} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} disabled={streaming} />
        <div class="form-actions">
          <button type="submit" disabled={streaming || !text.trim()}>
            Send
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
    </div>
  );
}

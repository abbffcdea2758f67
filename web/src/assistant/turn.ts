/**
 * One assistant turn as it streams (POST …/messages answers server-sent
 * events): the reply text, the model the response reported, tool calls and
 * their results, permission requests the agent CLI holds open (and their
 * answers), an error, and the end. Leaving the page disconnects the stream,
 * which the service takes as a cancel.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { assistant, type TurnEvent } from '../api/assistant.js';

export interface PermissionAsk {
  request_id: string;
  tool_name: string;
  tool_use_id: string | null;
  input: unknown;
  /** allow / deny once answered (here or elsewhere). */
  answered: boolean | null;
}

export type Step = { kind: 'tool_call'; id: string; name: string; input: unknown } | { kind: 'tool_result'; id: string; name: string; output: unknown; is_error: boolean };

export interface TurnState {
  sent: string;
  text: string;
  models: string[];
  steps: Step[];
  permissions: PermissionAsk[];
  error: { reason: string; message: string } | null;
  status: 'streaming' | 'completed' | 'cancelled' | 'failed';
  trouble: unknown;
}

export function useTurn(onEnd: () => void) {
  const [turn, setTurn] = useState<TurnState | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const apply = (e: TurnEvent) =>
    setTurn((t) => {
      if (!t) return t;
      const d = e.data;
      switch (e.event) {
        case 'text':
          return { ...t, text: t.text + String(d.delta ?? '') };
        case 'turn_model_report':
          return { ...t, models: [...t.models, String(d.model)] };
        case 'tool_call':
          return { ...t, steps: [...t.steps, { kind: 'tool_call', id: String(d.id), name: String(d.name), input: d.input }] };
        case 'tool_result':
          return { ...t, steps: [...t.steps, { kind: 'tool_result', id: String(d.id), name: String(d.name), output: d.output, is_error: Boolean(d.is_error) }] };
        case 'permission_request':
          return { ...t, permissions: [...t.permissions, { request_id: String(d.request_id), tool_name: String(d.tool_name), tool_use_id: (d.tool_use_id as string | null) ?? null, input: d.input, answered: null }] };
        case 'permission_answered':
          return { ...t, permissions: t.permissions.map((p) => (p.request_id === d.request_id ? { ...p, answered: Boolean(d.allow) } : p)) };
        case 'error':
          return { ...t, error: { reason: String(d.reason), message: String(d.message) } };
        case 'done':
          return { ...t, status: d.status as TurnState['status'] };
        default:
          return t;
      }
    });
  const send = (sessionId: number, text: string) => {
    const c = new AbortController();
    controller.current = c;
    setTurn({ sent: text, text: '', models: [], steps: [], permissions: [], error: null, status: 'streaming', trouble: null });
    assistant.send(sessionId, text, apply, c.signal).then(
      () => {
        setTurn((t) => (t && t.status === 'streaming' ? { ...t, status: 'failed' } : t));
        onEnd();
      },
      (err) => {
        if (c.signal.aborted) return;
        setTurn((t) => (t ? { ...t, status: 'failed', trouble: err } : t));
      },
    );
  };
  const clear = () => {
    controller.current?.abort();
    setTurn(null);
  };
  return { turn, send, clear, setTurn };
}

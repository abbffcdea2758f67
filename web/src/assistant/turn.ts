/**
 * One assistant turn as it streams (POST …/messages answers server-sent
 * events): the reply text, the model the response reported, tool calls and
 * their results, permission requests the agent CLI holds open (and their
 * answers), an error, and the end. Leaving the page disconnects the stream,
 * which the service takes as a cancel.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { assistant, type TurnEvent } from '../api/assistant.js';
import type { TurnStatus } from '../../../src/wire/assistant.js';

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
  status: 'streaming' | TurnStatus;
  trouble: unknown;
}

export function useTurn(onEnd: () => void) {
  const [turn, setTurn] = useState<TurnState | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const apply = (e: TurnEvent) =>
    setTurn((t) => {
      if (!t) return t;
      switch (e.event) {
        case 'text':
          return { ...t, text: t.text + e.data.delta };
        case 'turn_model_report':
          return { ...t, models: [...t.models, e.data.model] };
        case 'tool_call': {
          const { id, name, input } = e.data;
          return { ...t, steps: [...t.steps, { kind: 'tool_call', id, name, input }] };
        }
        case 'tool_result': {
          const { id, name, output, is_error } = e.data;
          return { ...t, steps: [...t.steps, { kind: 'tool_result', id, name, output, is_error }] };
        }
        case 'permission_request': {
          const { request_id, tool_name, tool_use_id, input } = e.data;
          return { ...t, permissions: [...t.permissions, { request_id, tool_name, tool_use_id, input, answered: null }] };
        }
        case 'permission_answered':
          return { ...t, permissions: t.permissions.map((p) => (p.request_id === e.data.request_id ? { ...p, answered: e.data.allow } : p)) };
        case 'error':
          return { ...t, error: { reason: e.data.reason, message: e.data.message } };
        case 'done':
          return { ...t, status: e.data.status };
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

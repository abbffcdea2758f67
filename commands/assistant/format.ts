/**
 * Human views of the assistant: `assistant status` (the default connection
 * and every connection by name) and `assistant show` (the connection, the
 * recorded tokens and cost of each reply and of the conversation, the model
 * each reply reported, and tool rounds). Recorded cost is not a billing claim
 * and null is not zero, so an absent value says "not recorded".
 */
import type { assistantStatus } from '../../src/assistant/connections.js';
import type { browseSessions, sessionDetail } from '../../src/assistant/sessions.js';
import { findApiProvider, findCliProvider } from '../../src/providers/provider-catalog.js';
import { table } from '../lib/io.js';
import { clip, oneLine } from '../lib/words.js';

type Status = ReturnType<typeof assistantStatus>;
type Detail = ReturnType<typeof sessionDetail>;
type Page = ReturnType<typeof browseSessions>;
interface Request {
  runtime: string;
  provider: string;
  model: string | null;
  effort: string | null;
}

export function connectionLabel(provider: string): string {
  return findApiProvider(provider)?.label ?? findCliProvider(provider)?.label ?? provider;
}

/** "Anthropic [api_key anthropic], model claude-x, effort not supported" */
export function describeRequest(r: Request): string {
  const model = r.model === null ? 'the runtime default model' : `model ${r.model}`;
  const effort = r.runtime === 'api_key' ? 'effort not supported' : r.effort === null ? 'the runtime default effort' : `effort ${r.effort}`;
  return `${connectionLabel(r.provider)} [${r.runtime} ${r.provider}], ${model}, ${effort}`;
}

export function statusText(s: Status): string {
  const d = s.composer_choices.default_request;
  const head = s.can_run ? 'The assistant can run.' : `The assistant cannot run: ${s.reason}`;
  const def = d ? `New conversations use ${describeRequest(d)} (the assistant settings; \`svc assistant new\` flags choose another).` : `No default connection: ${s.composer_choices.default_error}`;
  const isDefault = (c: { runtime: string; provider: string }) => d !== null && c.runtime === d.runtime && c.provider === d.provider;
  const rows = s.composer_choices.connections.map((c) => [`${isDefault(c) ? '*' : ' '} ${c.label}`, c.runtime, c.provider, c.available ? 'yes' : 'no', c.reason ?? '']);
  return [head, def, '', table([['  CONNECTION', 'RUNTIME', 'PROVIDER', 'AVAILABLE', 'WHY NOT'], ...rows]), d ? '\n* the default connection' : ''].join('\n').trimEnd();
}

const tokens = (i: number | null, o: number | null) => (i === null && o === null ? 'tokens not recorded' : `${i ?? '?'} in / ${o ?? '?'} out tokens`);
const cost = (c: number | null) => (c === null ? 'cost not recorded' : `cost $${c.toFixed(4)} (as recorded, not a bill)`);

/** One tool call as a person reads it: its name and its arguments, clipped. */
export function toolCallText(name: unknown, input: unknown): string {
  const args = input && typeof input === 'object' && Object.keys(input).length ? ` ${clip(JSON.stringify(input), 120)}` : '';
  return oneLine(`${String(name ?? '?')}${args}`);
}

function toolNames(data: unknown): string {
  return Array.isArray(data) ? data.map((c: { name?: unknown; input?: unknown }) => toolCallText(c?.name, c?.input)).join('; ') : '?';
}

export function showText(d: Detail): string {
  // Titles and tool names are one line; a message keeps its lines (emit makes them plain).
  const lines = [`# ${oneLine(d.session.display_title)} (${d.session.id})`];
  const c = d.choices as (Request & { unreadable?: undefined }) | { unreadable: true } | null;
  if (c === null) lines.push(`Connection: not recorded (a conversation from before connection choices; runtime ${d.session.runtime ?? 'unknown'}, model ${d.session.model ?? 'unknown'})`);
  else if (c.unreadable) lines.push('Connection: its recorded choices are unreadable');
  else lines.push(`Connection: ${describeRequest(c as Request)}`);
  const t = d.totals;
  lines.push(`Messages: ${t.message_count}; ${tokens(t.input_tokens, t.output_tokens)}; ${cost(t.cost_usd)}`);
  const reported = new Map(d.turn_choices.filter((turn) => turn.assistant_message_id !== null).map((turn) => [turn.assistant_message_id, turn.reports.map((r) => r.model)]));
  // A turn with no saved reply failed or was stopped before any text (unless it is the one running now).
  const unanswered = new Set(d.turn_choices.filter((turn) => turn.assistant_message_id === null && !turn.assistant_message_unreadable).map((turn) => turn.user_message_id));
  const lastUser = [...d.messages].reverse().find((m) => m.role === 'user')?.id;
  for (const m of d.messages) {
    if (m.role === 'tool') {
      const results = Array.isArray(m.tool_results.data) ? (m.tool_results.data as { name?: string; isError?: boolean }[]) : [];
      lines.push('', oneLine(`[tool] ${results.map((r) => `${r.name ?? '?'}${r.isError ? ' (error)' : ''}`).join(', ') || (m.tool_results.unreadable ? 'unreadable results' : 'no results')}`));
      continue;
    }
    lines.push('', `[${m.role}] ${m.content}`);
    if (m.role === 'user' && unanswered.has(m.id) && !(m.id === lastUser && d.activity_observation.turn_claimed)) lines.push('  (no reply was saved: the turn failed or was stopped before any answer)');
    if (m.tool_calls.data) lines.push(`  (called ${toolNames(m.tool_calls.data)})`);
    if (m.role === 'assistant' && !m.tool_calls.data) {
      const models = reported.get(m.id) ?? [];
      lines.push(`  (${tokens(m.input_tokens, m.output_tokens)}; ${cost(m.cost_usd)}${models.length ? `; model reported: ${[...new Set(models)].join(', ')}` : ''})`);
    }
  }
  return lines.join('\n');
}

/** The connection column of a list row: label and model, or what is known of an older conversation. */
function connectionCell(row: Page['sessions'][number]): string {
  const c = row.choices as (Request & { unreadable?: undefined }) | { unreadable: true } | null;
  if (c === null) return `${row.runtime ?? '?'} (before connection choices)`;
  if (c.unreadable) return 'unreadable choices';
  const r = c as Request;
  return `${connectionLabel(r.provider)}${r.model ? ` ${r.model}` : ''}`;
}

/** `assistant list`: one row per conversation, and how to get the next page (or why there is nothing). */
export function listText(page: Page, flags: { limit: number; query?: string; before?: string }): string {
  if (!page.sessions.length) {
    // With --before, an empty page is past the end of the list, not a list without conversations.
    const before = flags.before ? ` before ${flags.before}` : '';
    if (flags.query) return `No conversation title contains "${flags.query}"${before}.`;
    return before ? `No conversations${before}.` : 'No conversations yet; `svc assistant chat` starts one.';
  }
  const rows = page.sessions.map((s) => [String(s.id), s.display_title, connectionCell(s), String(s.message_count), s.updated_at_utc]);
  const lines = [table([['ID', 'TITLE', 'CONNECTION', 'MESSAGES', 'UPDATED'], ...rows])];
  if (page.next_before_id !== null) {
    const again = [`--before ${page.next_before_id}`, flags.limit !== 50 ? `--limit ${flags.limit}` : '', flags.query ? `--query ${JSON.stringify(flags.query)}` : ''].filter(Boolean).join(' ');
    lines.push('', `More: svc assistant list ${again}`);
  }
  return lines.join('\n');
}

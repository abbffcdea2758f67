/**
 * Conversation exports as JSON (version 1) or Markdown, answered in an
 * envelope. Saved text is preserved exactly, even if sensitive; the route
 * digest never leaves the database. Text over 8 MiB is refused, never cut.
 */
import type { Context } from '../context.js';
import { tooLarge } from '../errors.js';
import { conversationSnapshot } from './sessions.js';
import { choicesView, messageView, turnChoicesView } from './views.js';
import type { ConversationExport } from '../wire/assistant.js';

export const EXPORT_LIMIT_BYTES = 8 * 1024 * 1024;
export type ExportFormat = ConversationExport['format'];

export const EXPORT_LIMITATIONS = [
  'The export holds persisted messages only; a running turn may add more after the snapshot.',
  'completion_status is unknown: svc does not prove that a reply was complete.',
  'Recorded cost is what the runtime reported, not a billing claim; null means not recorded, not zero.',
  'Reported models are response claims, not proof of execution or billing.',
];

export function exportDocument(ctx: Context, id: number) {
  const s = conversationSnapshot(ctx, id);
  return {
    version: 1,
    session: { id: s.session.id, title: s.session.title, runtime: s.session.runtime, model: s.session.model, created_at_utc: s.session.created_at_utc, updated_at_utc: s.session.updated_at_utc },
    messages: s.messages.map((m) => {
      const v = messageView(m);
      return { id: v.id, role: v.role, content: v.content, timestamp: v.created_at_utc, input_tokens: v.input_tokens, output_tokens: v.output_tokens, cost_usd: v.cost_usd, tool_calls: v.tool_calls, tool_results: v.tool_results };
    }),
    snapshot: s.snapshot,
    activity_observation: s.activity_observation,
    completion_status: 'unknown',
    limitations: EXPORT_LIMITATIONS,
    choices_version: 1,
    choices: choicesView(s.choices),
    turn_choices: turnChoicesView(s.turns, s.reports),
  };
}

/** A fence of backticks longer than any backtick run in `value` (at least three). */
export function fence(value: string, info = ''): string {
  const longest = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${info}\n${value}\n${ticks}`;
}

const show = (value: unknown) => (value === null || value === undefined ? 'null' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

export function renderMarkdown(doc: ReturnType<typeof exportDocument>): string {
  const out: string[] = [];
  const field = (label: string, value: unknown) => out.push(`**${label}**`, '', fence(show(value)), '');
  out.push(`# Conversation ${doc.session.id}`, '');
  field('Title', doc.session.title);
  field('Runtime', doc.session.runtime);
  field('Model', doc.session.model);
  field('Created', doc.session.created_at_utc);
  field('Updated', doc.session.updated_at_utc);
  field('Choices', doc.choices);
  field('Snapshot', doc.snapshot);
  field('Activity observation', doc.activity_observation);
  out.push('Completion status: unknown', '');
  for (const m of doc.messages) {
    out.push(`## Message ${m.id} (${m.role})`, '');
    field('Timestamp', m.timestamp);
    field('Content', m.content);
    if (m.input_tokens !== null || m.output_tokens !== null) field('Tokens (input, output)', [m.input_tokens, m.output_tokens]);
    if (m.cost_usd !== null) field('Recorded cost (USD, not a billing claim)', m.cost_usd);
    if (m.tool_calls.data !== null || m.tool_calls.unreadable) field('Tool calls', m.tool_calls);
    if (m.tool_results.data !== null || m.tool_results.unreadable) field('Tool results', m.tool_results);
  }
  out.push('## Turn choices', '');
  field('Turns', doc.turn_choices);
  out.push('## Limitations', '');
  for (const l of doc.limitations) out.push(`- ${l}`);
  return out.join('\n') + '\n';
}

export function exportSession(ctx: Context, id: number, format: ExportFormat): ConversationExport {
  const doc = exportDocument(ctx, id);
  const text = format === 'json' ? JSON.stringify(doc, null, 2) + '\n' : renderMarkdown(doc);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > EXPORT_LIMIT_BYTES) {
    throw tooLarge('export_too_large', `The ${format} export of conversation ${id} would be ${bytes} bytes, over the ${EXPORT_LIMIT_BYTES}-byte limit; nothing was truncated.`, { limit_bytes: EXPORT_LIMIT_BYTES, size_bytes: bytes });
  }
  return {
    session_id: id,
    format,
    filename: `svc-chat-${id}.${format === 'json' ? 'json' : 'md'}`,
    content_type: format === 'json' ? 'application/json' : 'text/markdown',
    text,
    snapshot: doc.snapshot,
  };
}

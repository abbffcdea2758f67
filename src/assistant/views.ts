/** Read shapes of conversations: rows, choices, turn choices, tool fields. */
import { choicesProblems } from './choices.js';
import type { ChoicesRow, MessageRow, ReportRow, SessionListRow, SessionRow, TurnRow } from './repo.js';
import type { BoundChoices, Choices, ChoiceBasis, ConversationRow, Message, ModelReport, SessionChoices, SessionView, ToolField, TurnChoices } from '../wire/assistant.js';

export const NEW_CONVERSATION = 'New conversation';
const BASES = {
  model: ['explicit', 'settings_default', 'runtime_default'] as const satisfies readonly ChoiceBasis['model_basis'][],
  effort: ['explicit', 'settings_default', 'runtime_default', 'not_supported'] as const satisfies readonly ChoiceBasis['effort_basis'][],
  binding: ['new', 'legacy_confirmed'] as const satisfies readonly SessionChoices['binding_basis'][],
};

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

export function displayTitle(title: string | null): string {
  return title === null || title === '' ? NEW_CONVERSATION : title;
}

export function sessionView(row: SessionRow): SessionView {
  return { id: row.id, title: row.title, display_title: displayTitle(row.title), runtime: row.runtime, model: row.model, created_at_utc: row.created_at_utc, updated_at_utc: row.updated_at_utc };
}

/** Binding metadata: null for a legacy conversation, {unreadable: true} when the stored values do not make sense. */
export function choicesView(row: ChoicesRow | undefined): BoundChoices {
  if (!row) return null;
  const requested = { version: row.version, runtime: row.runtime, provider: row.provider, model: row.requested_model, effort: row.requested_effort };
  const { model_basis, effort_basis, binding_basis } = row;
  const ok = choicesProblems(requested).length === 0 && isOneOf(BASES.model, model_basis) && isOneOf(BASES.effort, effort_basis) && isOneOf(BASES.binding, binding_basis);
  if (!ok) return { unreadable: true };
  // choicesProblems found none: the stored values are a complete choices object.
  return { ...(requested as Choices), model_basis, effort_basis, binding_basis, created_at_utc: row.created_at_utc };
}

export function browseRow(row: SessionListRow, choices: ChoicesRow | undefined): ConversationRow {
  return { ...sessionView(row), message_count: row.message_count, choices: choicesView(choices) };
}

/** A stored JSON tool field: {data, unreadable}, with raw when it does not parse. */
export function toolField(raw: string | null): ToolField {
  if (raw === null) return { data: null, unreadable: false };
  try {
    return { data: JSON.parse(raw) as unknown, unreadable: false };
  } catch {
    return { data: null, unreadable: true, raw };
  }
}

export function messageView(m: MessageRow): Message {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    created_at_utc: m.created_at_utc,
    input_tokens: m.input_tokens,
    output_tokens: m.output_tokens,
    cost_usd: m.cost_usd,
    tool_calls: toolField(m.tool_calls_json),
    tool_results: toolField(m.tool_results_json),
  };
}

export function reportView(r: ReportRow): ModelReport {
  return { sequence: r.sequence, model: r.model, source: r.source, observed_at_utc: r.observed_at_utc };
}

export function turnChoicesView(turns: TurnRow[], reports: ReportRow[]): TurnChoices[] {
  return turns.map((t) => {
    const crossSession = t.assistant_message_id !== null && t.reply_session_id !== t.session_id;
    return {
      user_message_id: t.user_message_id,
      assistant_message_id: crossSession ? null : t.assistant_message_id,
      assistant_message_unreadable: crossSession,
      requested: { version: t.version, runtime: t.runtime, provider: t.provider, model: t.requested_model, effort: t.requested_effort },
      reports: reports.filter((r) => r.turn_id === t.id).map(reportView),
      created_at_utc: t.created_at_utc,
    };
  });
}

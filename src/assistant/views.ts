/** Read shapes of conversations: rows, choices, turn choices, tool fields. */
import { choicesProblems } from './choices.js';
import type { ChoicesRow, MessageRow, ReportRow, SessionListRow, SessionRow, TurnRow } from './repo.js';

export const NEW_CONVERSATION = 'New conversation';
const BASES = {
  model: ['explicit', 'settings_default', 'runtime_default'],
  effort: ['explicit', 'settings_default', 'runtime_default', 'not_supported'],
  binding: ['new', 'legacy_confirmed'],
};

export function displayTitle(title: string | null): string {
  return title === null || title === '' ? NEW_CONVERSATION : title;
}

export function sessionView(row: SessionRow) {
  return { id: row.id, title: row.title, display_title: displayTitle(row.title), runtime: row.runtime, model: row.model, created_at_utc: row.created_at_utc, updated_at_utc: row.updated_at_utc };
}

/** Binding metadata: null for a legacy conversation, {unreadable: true} when the stored values do not make sense. */
export function choicesView(row: ChoicesRow | undefined) {
  if (!row) return null;
  const requested = { version: row.version, runtime: row.runtime, provider: row.provider, model: row.requested_model, effort: row.requested_effort };
  const ok =
    choicesProblems(requested).length === 0 &&
    BASES.model.includes(row.model_basis) &&
    BASES.effort.includes(row.effort_basis) &&
    BASES.binding.includes(row.binding_basis);
  if (!ok) return { unreadable: true as const };
  return { ...requested, model_basis: row.model_basis, effort_basis: row.effort_basis, binding_basis: row.binding_basis, created_at_utc: row.created_at_utc };
}

export function browseRow(row: SessionListRow, choices: ChoicesRow | undefined) {
  return { ...sessionView(row), message_count: row.message_count, choices: choicesView(choices) };
}

/** A stored JSON tool field: {data, unreadable}, with raw when it does not parse. */
export function toolField(raw: string | null) {
  if (raw === null) return { data: null, unreadable: false };
  try {
    return { data: JSON.parse(raw) as unknown, unreadable: false };
  } catch {
    return { data: null, unreadable: true, raw };
  }
}

export function messageView(m: MessageRow) {
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

export function reportView(r: ReportRow) {
  return { sequence: r.sequence, model: r.model, source: r.source, observed_at_utc: r.observed_at_utc };
}

export function turnChoicesView(turns: TurnRow[], reports: ReportRow[]) {
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

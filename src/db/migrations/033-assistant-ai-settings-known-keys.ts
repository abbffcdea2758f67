import type { Migration } from '../migration.js';

/**
 * Migration 31 kept only model, max_output_tokens and instructions of the
 * ai_settings stored on routines, saved configurations and runs. Copies of
 * those objects were also saved in assistant conversations: a tool round
 * stores the tool calls (assistant_messages.tool_calls_json, the model's
 * arguments, e.g. a refused create_routine or run_sweep carrying
 * ai_settings) and the tools' answers (tool_results_json, e.g. list_routines
 * and get_routine, which read a routine's ai_settings as it was stored).
 * This step gives every ai_settings (and a run's aiSettings) object found
 * anywhere in those two columns the same treatment, with secure_delete on so
 * the old bytes are overwritten, not only freed.
 *
 * The checks are a frozen copy of migration 31's (a migration must not
 * import code that may change later).
 */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const FIELDS = new Set(['ai_settings', 'aiSettings']);

function keptValue(key: string, value: unknown): unknown {
  if (key === 'model') return typeof value === 'string' && value.trim() !== '' && value.length <= 512 && !CONTROL.test(value) ? value : undefined;
  if (key === 'instructions') return typeof value === 'string' && value.trim() !== '' && value.trim().length <= 2000 ? value.trim() : undefined;
  if (key === 'max_output_tokens') return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 1_000_000 ? value : undefined;
  return undefined;
}

/** The known part of a stored ai_settings value; `undefined` when it is already only that. */
function cleaned(value: unknown): Record<string, unknown> | null | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  const out: Record<string, unknown> = {};
  let changed = false;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const kept = keptValue(key, v);
    if (kept === undefined) changed = true;
    else {
      if (kept !== v) changed = true;
      out[key] = kept;
    }
  }
  return changed ? out : undefined;
}

/** `value` with every ai_settings object in it cleaned, at any depth; `undefined` when nothing changed. */
function scrubbed(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  let changed = false;
  if (Array.isArray(value)) {
    const out = value.map((item) => {
      const next = scrubbed(item);
      if (next === undefined) return item;
      changed = true;
      return next;
    });
    return changed ? out : undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    // A field whose value is not an object (a string quoting one, say) is no stored settings object: left alone.
    const next = FIELDS.has(key) && v !== null && typeof v === 'object' && !Array.isArray(v) ? cleaned(v) : scrubbed(v);
    if (next === undefined) out[key] = v;
    else {
      changed = true;
      out[key] = next;
    }
  }
  return changed ? out : undefined;
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

export const assistantAiSettingsKnownKeys: Migration = {
  version: 33,
  name: 'assistant-ai-settings-known-keys',
  creates: [],
  up(db) {
    const secureDelete = db.pragma('secure_delete', { simple: true }) as number;
    db.pragma('secure_delete = ON');
    try {
      for (const column of ['tool_calls_json', 'tool_results_json']) {
        // JSON.stringify wrote these: an object-valued field reads `"ai_settings":{` with no space.
        const rows = db
          .prepare(`SELECT id, ${column} AS json FROM assistant_messages WHERE ${column} LIKE '%"ai_settings":{%' OR ${column} LIKE '%"aiSettings":{%'`)
          .all() as { id: number; json: string }[];
        const update = db.prepare(`UPDATE assistant_messages SET ${column} = ? WHERE id = ?`);
        for (const row of rows) {
          const parsed = parse(row.json);
          if (parsed === undefined) continue;
          const next = scrubbed(parsed);
          if (next !== undefined) update.run(JSON.stringify(next), row.id);
        }
      }
    } finally {
      db.pragma(`secure_delete = ${secureDelete ? 'ON' : 'OFF'}`);
    }
  },
};

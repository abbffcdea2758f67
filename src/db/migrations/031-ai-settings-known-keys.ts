import type { Migration } from '../migration.js';

/**
 * Before svc gave `ai_settings` its three keys (model, max_output_tokens,
 * instructions; executions/ai-settings.ts), the object was stored as typed:
 * on routines, saved configurations and every run's parameters. Nothing ever
 * read it, so a key typed there (an API key, say) did nothing but travel into
 * every routine read, configuration export and backup. This step keeps only
 * the three keys with values the door would take and drops the rest, with
 * secure_delete on so the old bytes are overwritten, not only freed.
 *
 * The checks are a frozen copy of ai-settings.ts at the time (a migration
 * must not import code that may change later).
 */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

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

function parse(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

export const aiSettingsKnownKeys: Migration = {
  version: 31,
  name: 'ai-settings-known-keys',
  creates: [],
  up(db) {
    const secureDelete = db.pragma('secure_delete', { simple: true }) as number;
    db.pragma('secure_delete = ON');
    try {
      // A stored object holding `field` (routines, configurations: ai_settings; runs: aiSettings).
      const inParameters = (table: string, field: string) => {
        const rows = db.prepare(`SELECT id, parameters_json FROM ${table} WHERE parameters_json LIKE ?`).all(`%"${field}":{%`) as { id: number; parameters_json: string }[];
        const update = db.prepare(`UPDATE ${table} SET parameters_json = ? WHERE id = ?`);
        for (const row of rows) {
          const parameters = parse(row.parameters_json);
          if (!parameters || typeof parameters !== 'object' || Array.isArray(parameters)) continue;
          const next = cleaned((parameters as Record<string, unknown>)[field]);
          if (next !== undefined) update.run(JSON.stringify({ ...(parameters as Record<string, unknown>), [field]: next }), row.id);
        }
      };
      inParameters('routines', 'ai_settings');
      inParameters('saved_configurations', 'ai_settings');
      inParameters('executions', 'aiSettings');
      const routines = db.prepare('SELECT id, ai_settings_json FROM routines WHERE ai_settings_json IS NOT NULL').all() as { id: number; ai_settings_json: string }[];
      const update = db.prepare('UPDATE routines SET ai_settings_json = ? WHERE id = ?');
      for (const row of routines) {
        const next = cleaned(parse(row.ai_settings_json) ?? {});
        if (next !== undefined) update.run(JSON.stringify(next), row.id);
      }
    } finally {
      db.pragma(`secure_delete = ${secureDelete ? 'ON' : 'OFF'}`);
    }
  },
};

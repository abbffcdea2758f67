/**
 * update_settings, exactly as document 3 rules it: a group allowlist (never
 * execution), secret-looking keys refused before any request, legal keys read
 * from the group's GET (an unknown key is refused, not dropped), booleans
 * converted only from "true"/"false", and a diff of the actual state read
 * before and after the write.
 */
import { invalidArgument } from '../errors.js';
import { defineTool } from '../tool.js';

export const SETTINGS_GROUPS = ['ai', 'email', 'embeddings', 'cloud', 'storage', 'notifications', 'assistant'] as const;
const SECRET_LOOKING = /key|token|secret|password|passphrase|credential|auth/i;

function convert(key: string, raw: unknown, current: unknown): unknown {
  if (typeof current === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    if (typeof raw === 'string' && /^(true|false)$/i.test(raw.trim())) return raw.trim().toLowerCase() === 'true';
    throw invalidArgument(`update_settings: ${key} is a boolean setting; send "true" or "false".`, { key });
  }
  if (typeof current === 'number' && typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const updateSettings = defineTool({
  name: 'update_settings',
  title: 'Change settings',
  description: `Change keys of one settings group (${SETTINGS_GROUPS.join(', ')}); answers what actually changed. Secrets are never set here.`,
  idempotent: true,
  args: {
    group: {
      type: 'string',
      description: 'The settings group. The execution group (how many runs may go at once) is not offered to tools: a person changes it with `svc settings set execution …` or the window\'s Settings page.',
      required: true,
      enum: SETTINGS_GROUPS,
    },
    settings: {
      type: 'object',
      description: 'Keys of the group and their new values, as strings ("true"/"false" for booleans). An unknown key is refused with the list of the group\'s keys.',
      required: true,
      schema: { minProperties: 1, additionalProperties: { type: 'string' } },
    },
  },
  async run(backend, args) {
    const requested = args.settings as Record<string, unknown>;
    const keys = Object.keys(requested);
    if (!keys.length) throw invalidArgument('update_settings: settings names no key to change.');
    const secret = keys.find((k) => SECRET_LOOKING.test(k));
    if (secret) throw invalidArgument(`update_settings never sets secrets: "${secret.slice(0, 64)}" looks like one; store keys with \`svc credentials set\`.`, { key: secret.slice(0, 64) });
    const path = `/api/settings/${args.group}`;
    const before = ((await backend.get(path)).settings ?? {}) as Record<string, unknown>;
    // Own keys only: "constructor" is in every object, and is no setting.
    const unknown = keys.filter((k) => !Object.hasOwn(before, k));
    if (unknown.length) throw invalidArgument(`update_settings: ${args.group} has no setting ${unknown.map((k) => `"${k.slice(0, 64)}"`).join(', ')}; it has ${Object.keys(before).join(', ')}.`, { unknown_keys: unknown.map((k) => k.slice(0, 64)) });
    const body = Object.fromEntries(keys.map((k) => [k, convert(k, requested[k], before[k])]));
    await backend.send('PUT', path, { settings: body });
    const after = ((await backend.get(path)).settings ?? {}) as Record<string, unknown>;
    const changed = Object.fromEntries(Object.keys(after).filter((k) => !same(before[k], after[k])).map((k) => [k, { from: before[k] ?? null, to: after[k] ?? null }]));
    return { group: args.group, changed, requested: keys, unchanged_key_count: keys.filter((k) => !(k in changed)).length };
  },
});

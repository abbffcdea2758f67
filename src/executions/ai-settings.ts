/**
 * A run's (or a routine's) `ai_settings`: the spec leaves its keys open; svc
 * gives it three — `model` (asked instead of ai.model), `max_output_tokens`
 * (clamped to the ai settings' bound) and `instructions` (the researcher's
 * focus, sent with the summary prompt). Any other key is refused at the door
 * without quoting its value: a key typed there would otherwise be stored with
 * the run, the routine and every export of them. Values stored before this
 * rule are read leniently at run time (unknown keys ignored, never a crash).
 */
import { ValidationError, type ValidationIssue } from '../errors.js';
import { modelProblem } from '../providers/model-name.js';

export const AI_SETTINGS_KEYS = ['model', 'max_output_tokens', 'instructions'] as const;
export const MAX_INSTRUCTIONS_LENGTH = 2000;
/** Far above any model's output; a larger number is a typo, not a wish. */
const MAX_TOKENS_ASKED = 1_000_000;

export interface AiSettings {
  model?: string;
  max_output_tokens?: number;
  instructions?: string;
}

/** A key name that reads as a name: quoted back. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** Prefixes of common API keys and tokens (OpenAI/Stripe sk-, pk-, rk-; GitHub; GitLab; Slack xox…). */
const TOKEN_PREFIX = /^(sk|pk|rk|ghp|gho|ghs|ghu|github_pat|glpat|xox[abprse]?)[-_]/i;
/** What an unknown key is called when its name is not quoted. */
export const UNQUOTED_KEY = 'an unknown key';

/**
 * The unknown key's name as answers may quote it, or null: a secret pasted as
 * a key name would otherwise be echoed in the 422 and the run's ai_lane. Only
 * identifier-like names are quoted, never token-shaped ones (a known token
 * prefix, or 24 characters or more mixing letters and digits).
 */
export function quotableKey(key: string): string | null {
  if (!IDENTIFIER.test(key) || TOKEN_PREFIX.test(key)) return null;
  if (key.length >= 24 && /[A-Za-z]/.test(key) && /\d/.test(key)) return null;
  return key;
}

function instructionsProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'instructions must be a string';
  if (value.trim() === '') return 'instructions must not be blank; leave the key out for none';
  if (value.trim().length > MAX_INSTRUCTIONS_LENGTH) return `instructions must have at most ${MAX_INSTRUCTIONS_LENGTH} characters`;
  return undefined;
}

function tokensProblem(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TOKENS_ASKED) return `max_output_tokens must be a whole number from 1 to ${MAX_TOKENS_ASKED} (it is clamped to the ai settings' max_output_tokens)`;
  return undefined;
}

/**
 * Validate `ai_settings` of a request body (422 naming each bad key; a value is never quoted,
 * it may be a secret). Answers the object with only the known keys, instructions trimmed.
 * @example parseAiSettings({ instructions: 'focus on field studies' }, ['body', 'ai_settings'])
 */
export function parseAiSettings(input: Record<string, unknown> | null | undefined, loc: (string | number)[]): AiSettings | null {
  if (input === null || input === undefined) return null;
  const issues: ValidationIssue[] = [];
  const out: AiSettings = {};
  for (const [key, value] of Object.entries(input)) {
    if (!(AI_SETTINGS_KEYS as readonly string[]).includes(key)) {
      const name = quotableKey(key);
      const what = name === null ? 'ai_settings has an unknown key (its name is not quoted: it may be a secret)' : `Unknown ai_settings key "${name}"`;
      issues.push({ loc: name === null ? [...loc] : [...loc, name], msg: `${what}; ai_settings takes ${AI_SETTINGS_KEYS.join(', ')} (keys belong in \`svc credentials set\`, never here)`, type: 'extra_forbidden', input: null, ctx: { allowed: [...AI_SETTINGS_KEYS] } });
      continue;
    }
    const at = [...loc, key];
    const problem = key === 'model' ? (value === null ? undefined : modelProblem(value)) : key === 'instructions' ? instructionsProblem(value) : tokensProblem(value);
    if (problem) issues.push({ loc: at, msg: problem, type: 'value_error', input: null, ctx: {} });
    else if (key === 'model' && typeof value === 'string') out.model = value;
    else if (key === 'instructions') out.instructions = (value as string).trim();
    else if (key === 'max_output_tokens') out.max_output_tokens = value as number;
  }
  if (issues.length) throw new ValidationError(issues);
  return out;
}

/** What a stored value asks for: the known keys whose values fit; the names of the keys ignored. */
export function storedAiSettings(input: unknown): { settings: AiSettings; ignored: string[] } {
  const settings: AiSettings = {};
  const ignored: string[] = [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return { settings, ignored };
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (key === 'model' && !modelProblem(value)) settings.model = value as string;
    else if (key === 'instructions' && !instructionsProblem(value)) settings.instructions = (value as string).trim();
    else if (key === 'max_output_tokens' && !tokensProblem(value)) settings.max_output_tokens = value as number;
    else if (!(key === 'model' && value === null)) ignored.push(quotableKey(key) ?? UNQUOTED_KEY);
  }
  return { settings, ignored: [...new Set(ignored)].slice(0, 10) };
}

/** Only the keys svc uses (for merging a stored value into a new body, e.g. `svc routine edit`). */
export function knownAiSettings(input: unknown): AiSettings | null {
  if (input === null || input === undefined) return null;
  return storedAiSettings(input).settings;
}

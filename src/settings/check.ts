import path from 'node:path';
import { modelProblem } from '../providers/model-name.js';
import { SvcError, type ValidationIssue } from '../errors.js';
import { SETTINGS, type SettingDef, type SettingsGroup } from './schema.js';

/** One address, no display name: local@domain.tld with no spaces (what SMTP and the polite pools accept). */
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]{2,}$/;

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * An endpoint setting (schema.ts `endpoint`) as a request uses it: a stored value from before the URL
 * check reads as stored, and is refused here instead of being replaced by the provider's own endpoint.
 */
export function usableEndpoint(group: string, key: string, value: string): string {
  if (isHttpUrl(value)) return value;
  const shown = JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);
  throw new SvcError(409, 'endpoint_invalid', `The ${group}.${key} setting ${shown} is not an http:// or https:// URL; set it again (svc settings set ${group} ${key} http://…), or to "" for the provider's own endpoint.`, {
    setting: `${group}.${key}`,
  });
}

function isRelativeFolder(value: string): boolean {
  return value !== '' && !value.split('/').some((part) => part === '' || part === '.' || part === '..') && !/[\\\0?#]/.test(value);
}

/** Why a value does not fit its setting, or undefined when it fits. */
export function checkSettingValue(def: SettingDef, value: unknown): { msg: string; type: string; ctx?: Record<string, unknown> } | undefined {
  switch (def.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : { msg: 'Input should be a valid boolean', type: 'bool_type' };
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return { msg: 'Input should be a valid integer', type: 'int_type' };
      if (value < def.min || value > def.max) {
        return { msg: `Input should be between ${def.min} and ${def.max}`, type: 'range', ctx: { ge: def.min, le: def.max } };
      }
      return undefined;
    case 'string':
    case 'nullable-string':
      if (value === null && def.type === 'nullable-string') return undefined;
      if (typeof value !== 'string') return { msg: 'Input should be a valid string', type: 'string_type' };
      if (def.maxLength !== undefined && value.length > def.maxLength) {
        return { msg: `String should have at most ${def.maxLength} characters`, type: 'string_too_long', ctx: { max_length: def.maxLength } };
      }
      if (def.type === 'string' && def.email && value !== '' && !EMAIL.test(value)) {
        return { msg: 'Input should be an email address like name@example.org (or empty)', type: 'email' };
      }
      // A URL without http:// (dav.example.org/…, localhost:11434) is stored fine and fails at its first use
      // (the cloud backup answered 500 internal_error): refused here, and one stored before reads as unset.
      if (def.type === 'string' && def.url && value !== '' && !isHttpUrl(value)) {
        return { msg: 'Input should be a URL starting with http:// or https:// (or empty)', type: 'url_parsing' };
      }
      // The WebDAV folder is resolved under the account's URL: "" or "/" would be the server root, ".." a folder above.
      if (def.type === 'string' && def.relativeFolder && !isRelativeFolder(value)) {
        return { msg: 'Input should be a relative folder name such as svc or backups/svc (no leading /, no . or .. parts)', type: 'folder_invalid' };
      }
      // A relative folder would mean a different place for every process (each resolves it from its own working directory).
      if (def.type === 'string' && def.absolutePath && value !== '' && !path.isAbsolute(value)) {
        return { msg: 'Input should be an absolute path (or empty for the default)', type: 'path_not_absolute' };
      }
      // The default model is what new conversations bind to: it follows the composer's model rule
      // (document 3: nonblank, no Unicode controls), or every later creation would capture an unusable default.
      if (def.type === 'nullable-string' && def.model && value !== '') {
        const problem = modelProblem(value);
        if (problem) return { msg: `Input should be a model name: ${problem} (null or empty for none)`, type: 'model_invalid' };
      }
      if (def.oneOf && !def.oneOf.includes(value)) {
        return { msg: `Input should be one of: ${def.oneOf.join(', ')}`, type: 'enum', ctx: { expected: def.oneOf } };
      }
      return undefined;
  }
}

/**
 * A URL setting never holds a secret: one with a user name or password in it
 * (https://user:pass@host/) is refused when written, and the refusal does not
 * quote it. Credentials have their own store (cloud_password, the API keys).
 */
export function urlCarriesCredentials(def: SettingDef, value: unknown): boolean {
  if (def.type !== 'string' || !def.url || typeof value !== 'string' || value === '') return false;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.username !== '' || url.password !== '';
  } catch {
    // Not a URL at all: read as written below.
  }
  // "user:pass@host" without a scheme (which URL reads as the scheme "user:") still says where a password would go;
  // so does any @ here, the password may hold a slash, ? or # ("me:a/b@host"), and such a value is refused anyway.
  return value.includes('@');
}

/** A host name, an IPv4 address, or an IPv6 address (bare or in brackets). */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?|\[?(?=[^\]]*:[^\]]*:)[0-9A-Fa-f:.]+\]?)$/;

/**
 * A host setting holds a host name and nothing else: "user:pass@smtp.example.org" or
 * "smtps://user:pass@host" would store (and print) a password. Refused without quoting it,
 * and a stored one reads as the default.
 */
export function badHost(def: SettingDef, value: unknown): boolean {
  return def.type === 'string' && def.host === true && typeof value === 'string' && value !== '' && !HOST.test(value);
}

/** Turn a command-line word into the setting's type ("true" → true, "25" → 25, "null" → null). */
export function parseSettingWord(def: SettingDef, word: string): unknown {
  if (def.type === 'boolean') {
    const lower = word.toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : word;
  }
  if (def.type === 'integer') return /^-?\d+$/.test(word) ? Number(word) : word;
  if (def.type === 'nullable-string' && word === 'null') return null;
  // On the command line a relative folder means one under the current directory: store where that is.
  if (def.type === 'string' && def.absolutePath && word !== '') return path.resolve(word);
  return word;
}

/**
 * The 422 issue for one value written to a setting, or undefined when it fits. A value with a
 * password in it is never quoted back, whatever else is wrong with it, and "me:pw@host" is answered
 * with where the password goes rather than only "not an http URL".
 */
export function settingIssue(group: string, def: SettingDef, value: unknown, loc: (string | number)[]): ValidationIssue | undefined {
  const problem = checkSettingValue(def, value);
  const userinfo = urlCarriesCredentials(def, value);
  if (problem && !(userinfo && problem.type === 'url_parsing')) return { loc, input: userinfo || badHost(def, value) ? null : value, ctx: {}, ...problem };
  if (userinfo) {
    const where = group === 'cloud' ? 'the user name is cloud.username, the password the cloud_password credential' : "a key is the provider's credential, such as openai_api_key";
    return { loc, msg: `The URL must not carry a user name or password; store secrets with \`svc credentials set\` (${where})`, type: 'url_userinfo', input: null, ctx: {} };
  }
  if (badHost(def, value)) {
    return { loc, msg: 'Input should be a host name or IP address such as smtp.example.org, with no scheme, port, user name or password (the login is email.smtp_username, the password the smtp_password credential)', type: 'host', input: null, ctx: {} };
  }
  return undefined;
}

/**
 * The 422 issue for a key that is no setting of its group, naming the group's keys so a typo is
 * seen and fixed rather than dropped. The value is not echoed: a misplaced key may hold a secret.
 */
export function unknownKeyIssue(group: SettingsGroup, key: string, loc: (string | number)[]): ValidationIssue {
  const keys = Object.keys(SETTINGS[group]);
  return {
    loc,
    msg: `Extra inputs are not permitted: ${group} has no setting "${key.slice(0, 64)}"; its keys are ${keys.join(', ')}`,
    type: 'extra_forbidden',
    input: null,
    ctx: { expected: keys },
  };
}

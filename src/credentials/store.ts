/**
 * The credentials store: one owner-only JSON file in the state dir. Values are
 * handed only to the code that sends them upstream; every other caller sees a
 * status (present, absent, unreadable). Nothing here puts a value in an error.
 */
import fs from 'node:fs';
import { SvcError, notFound } from '../errors.js';
import type { Logger } from '../log.js';
import { readOwnedFile, writeOwnerOnlyFile } from '../util/owned-files.js';
import { CREDENTIAL_NAMES, findCredentialName } from './names.js';
import type { CredentialState, CredentialStatus } from '../wire/credentials.js';

export interface CredentialStore {
  statuses(): CredentialState[];
  status(name: string): CredentialStatus;
  /** The value for sending upstream; undefined when absent or unreadable. */
  reveal(name: string): string | undefined;
  set(name: string, value: string): void;
  remove(name: string): void;
  /** Remove every value, or only those of some kinds. */
  erase(kinds?: string[]): void;
}

type FileState = { ok: true; values: Record<string, unknown> } | { ok: false };

export const MAX_CREDENTIAL_LENGTH = 8192;

/**
 * A value as a credential may be stored: not empty, at most MAX_CREDENTIAL_LENGTH
 * characters (the rule PUT /api/credentials/{key_name} applies). The message never quotes it.
 */
export function checkCredentialValue(name: string, value: string): void {
  if (value.length === 0) throw new SvcError(400, 'empty_value', `No value given for ${name}.`);
  if (value.length > MAX_CREDENTIAL_LENGTH) throw new SvcError(400, 'value_too_long', `A credential may have at most ${MAX_CREDENTIAL_LENGTH} characters; this one has ${value.length}.`);
}

export function createCredentialStore(file: string, log: Logger): CredentialStore {
  const load = (): FileState => {
    try {
      const bytes = readOwnedFile(file);
      if (bytes === undefined) return { ok: true, values: {} };
      const parsed = JSON.parse(bytes.toString('utf8'));
      if (!parsed || typeof parsed !== 'object' || typeof parsed.values !== 'object' || parsed.values === null) return { ok: false };
      return { ok: true, values: parsed.values };
    } catch {
      return { ok: false };
    }
  };
  const statusIn = (state: FileState, name: string): CredentialStatus => {
    if (!state.ok) return 'unreadable';
    const value = state.values[name];
    if (value === undefined) return 'absent';
    return typeof value === 'string' && value.length > 0 ? 'present' : 'unreadable';
  };
  const known = (name: string) => {
    if (!findCredentialName(name)) throw notFound('credential_unknown', `No credential is called "${name.slice(0, 64)}"; run \`svc credentials list\` for the names.`);
  };
  const save = (values: Record<string, unknown>) => writeOwnerOnlyFile(file, JSON.stringify({ version: 1, values }, null, 2) + '\n');
  const loadForWrite = (): Record<string, unknown> => {
    const state = load();
    if (state.ok) return { ...state.values };
    if (!fs.existsSync(file)) return {};
    throw new SvcError(500, 'credentials_unreadable', `The credentials file ${file} cannot be read (damaged, or not yours to read); fix its permissions, or move it aside and store the keys again.`);
  };

  return {
    statuses() {
      const state = load();
      return CREDENTIAL_NAMES.map((c) => ({ name: c.name, kind: c.kind, label: c.label, status: statusIn(state, c.name) }));
    },
    status(name) {
      known(name);
      return statusIn(load(), name);
    },
    reveal(name) {
      const state = load();
      if (statusIn(state, name) !== 'present') return undefined;
      const value = (state as { values: Record<string, string> }).values[name]!;
      log.addSecret(value);
      return value;
    },
    set(name, value) {
      known(name);
      log.addSecret(value);
      const values = loadForWrite();
      values[name] = value;
      save(values);
    },
    remove(name) {
      known(name);
      const values = loadForWrite();
      if (!(name in values)) return;
      delete values[name];
      save(values);
    },
    erase(kinds) {
      if (!kinds) return save({});
      const values = loadForWrite();
      for (const c of CREDENTIAL_NAMES) if (kinds.includes(c.kind)) delete values[c.name];
      save(values);
    },
  };
}

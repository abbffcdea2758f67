import type { Command } from 'commander';
import { SvcError } from '../../src/errors.js';
import { findCredentialName } from '../../src/credentials/names.js';
import { parseSettingWord } from '../../src/settings/check.js';
import { SETTINGS, SETTINGS_GROUPS, isSettingsGroup, settingDef, type SettingsGroup } from '../../src/settings/schema.js';
import { withContext } from '../lib/context.js';
import { addEmailTest } from '../deliveries/email-test.js';
import { emit, table, type Io } from '../lib/io.js';

function groupOf(name: string): SettingsGroup {
  if (!isSettingsGroup(name)) throw new SvcError(400, 'unknown_group', `No settings group "${name}"; groups: ${SETTINGS_GROUPS.join(', ')}.`);
  return name;
}

/** A password or key asked for as a setting: say where secrets go instead (the credentials store, read from stdin). */
function secretHint(group: SettingsGroup, key: string): string {
  const named = findCredentialName(key) ?? findCredentialName(`${group}_${key}`);
  if (named) return ` ${named.name} is a credential: store it with \`svc credentials set ${named.name}\` (it reads stdin, never the command line).`;
  if (/pass(word)?|secret|token|api_?key/i.test(key)) return ' Secrets are credentials, never settings: `svc credentials list` shows the names, `svc credentials set NAME` stores one.';
  return '';
}

function keyOf(group: SettingsGroup, key: string): string {
  if (!settingDef(group, key)) {
    throw new SvcError(400, 'unknown_key', `No setting "${key.slice(0, 64)}" in ${group}; keys: ${Object.keys(SETTINGS[group]).join(', ')}.${secretHint(group, key)}`);
  }
  return key;
}

const show = (value: unknown) => (value === null ? 'null' : typeof value === 'string' ? (value === '' ? '""' : value) : String(value));

export function register(program: Command, io: Io): void {
  const settings = program.command('settings').description('read and change settings (groups: ' + SETTINGS_GROUPS.join(', ') + ')');
  settings
    .command('get')
    .description('print a group, one key of it, or every group')
    .argument('[group]', 'settings group')
    .argument('[key]', 'one key of the group')
    .action((groupName?: string, key?: string) =>
      withContext(io, (ctx) => {
        if (!groupName) {
          const all = Object.fromEntries(SETTINGS_GROUPS.map((g) => [g, ctx.settings.read(g)]));
          return emit(io, all, () => SETTINGS_GROUPS.map((g) => `[${g}]\n` + table(Object.entries(all[g]!).map(([k, v]) => [k, show(v)]))).join('\n\n'));
        }
        const group = groupOf(groupName);
        const values = ctx.settings.read(group);
        if (key) {
          keyOf(group, key);
          return emit(io, { group, key, value: values[key] }, () => show(values[key]));
        }
        emit(io, { group, settings: values }, () => table(Object.entries(values).map(([k, v]) => [k, show(v), SETTINGS[group][k]!.doc])));
      }),
    );
  settings
    .command('set')
    .description('change one setting; the value is converted to the setting\'s type (true/false, numbers, null)')
    .argument('<group>', 'settings group')
    .argument('<key>', 'setting name')
    .argument('<value>', 'new value')
    .action((groupName: string, key: string, word: string) =>
      withContext(io, (ctx) => {
        const group = groupOf(groupName);
        const def = settingDef(group, keyOf(group, key))!;
        const values = ctx.settings.write(group, { [key]: parseSettingWord(def, word) }, [group]);
        emit(io, { group, key, value: values[key] }, () => `${group}.${key} = ${show(values[key])}`);
      }),
    );
  addEmailTest(settings.command('email').description('the email settings: test').command('test'), io);
}

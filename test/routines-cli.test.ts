import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { askRoutine, type Prompter } from '../commands/routine/ask.js';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { CONFIG_TYPES } from '../src/configurations/schema.js';
import { PARAMETER_KEYS } from '../src/routines/parameters.js';
import { NICKNAMES } from '../src/scheduler/cron.js';
import { fileLease } from '../src/scheduler/lease.js';
import { fixture, freePort, ROOT, tempDirs, type TempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startStub, type Stub } from './_stub.js';

let dirs: TempDirs;
let crossref: Stub;
let env: Record<string, string>;
const svc = (...args: string[]) => runCliInProcess(args, { env });
const json = async (...args: string[]) => {
  const r = await svc('--json', ...args);
  assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
};

test.before(async () => {
  dirs = tempDirs();
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: crossref.url };
});
test.after(async () => {
  await crossref.close();
  dirs.cleanup();
});

test('routine add with flags never prompts; without them off a terminal it names the missing flags (exit 2)', async () => {
  const bare = await svc('routine', 'add');
  assert.is(bare.code, 2);
  assert.match(bare.stderr, /--name, --schedule, --query, --sources/);
  const r = await json('routine', 'add', '--name', 'ecology', '--schedule', '0 6 * * *', '--query', 'ecology', '--sources', 'crossref', '--window-days', '7', '--intent', 'animal communication ecology', '--max', '2');
  assert.equal([r.id, r.name, r.is_active, r.parameters.window_days, r.schedule.next_runs.length], [1, 'ecology', true, 7, 3]);
  const bad = await svc('routine', 'add', '--name', 'x', '--schedule', '0 6 * *', '--query', 'q', '--sources', 'crossref');
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /--schedule: .*4 fields/);
  const source = await svc('routine', 'add', '--name', 'x', '--schedule', '@daily', '--query', 'q', '--sources', 'crossref,atlantis');
  assert.equal([source.code, /--sources: Unknown repository "atlantis"/.test(source.stderr)], [2, true]);
  const twice = await svc('--json', 'routine', 'add', '--name', 'ecology', '--schedule', '@daily', '--query', 'q', '--sources', 'crossref');
  assert.equal([twice.code, JSON.parse(twice.stdout).error], [2, 'duplicate_name']);
  assert.match(twice.stderr, /A routine called "ecology" exists already \(id 1\)/);
  const keyless = await svc('--json', 'routine', 'add', '--name', 'k', '--schedule', '@daily', '--query', 'q', '--sources', 'core');
  assert.equal([keyless.code, JSON.parse(keyless.stdout).error], [2, 'missing_key']);
  for (const [flag, value] of [['--max', '0'], ['--max', '1.5'], ['--window-days', '-5'], ['--window-days', 'abc'], ['--window-days', '3651']]) {
    const r = await svc('routine', 'add', '--name', 'y', '--schedule', '@daily', '--query', 'q', '--sources', 'crossref', flag!, value!);
    assert.is(r.code, 2, `${flag} ${value}`);
    assert.match(r.stderr, new RegExp(`${flag} must be a whole number from 1 to \\d+, not "${value!.replace('.', '\\.')}"`));
  }
  assert.is((await json('routine', 'list')).routines.length, 1, 'nothing was created by a refusal');
});

test('list, show, edit, deactivate, activate, jobs, coverage', async () => {
  const list = await json('routine', 'list');
  assert.equal(list.routines.map((r: any) => r.name), ['ecology']);
  assert.match((await svc('routine', 'list')).stdout, /ID\s+ACTIVE\s+SCHEDULE/);
  const edited = await json('routine', 'edit', '1', '--schedule', 'CRON_TZ=Europe/Berlin 30 7 * * 1-5', '--keywords', 'birds,song', '--no-intent');
  // show gives each next fire in UTC and in the routine's own zone (a bare 05:30 would read as local time).
  assert.match((await svc('routine', 'show', '1')).stdout, /next fires \d{4}-\d\d-\d\d \d\d:30 UTC \(\d{4}-\d\d-\d\d 07:30 Europe\/Berlin\), /);
  assert.equal([edited.schedule_cron, edited.schedule.timezone, edited.parameters.keywords, edited.parameters.query, edited.intent], ['CRON_TZ=Europe/Berlin 30 7 * * 1-5', 'Europe/Berlin', ['birds', 'song'], 'ecology', null]);
  assert.is((await svc('routine', 'edit', '1')).code, 2, 'nothing to change');
  // The flag, not the body field: --schedule "" is refused as --schedule.
  const empty = await svc('routine', 'edit', '1', '--schedule', '');
  assert.is(empty.code, 2);
  assert.match(empty.stderr, /^svc: --schedule: The schedule is empty/);
  assert.not.match(empty.stderr, /schedule_cron/);
  assert.equal(await json('routine', 'deactivate', '1'), { id: 1, is_active: false });
  const jobs = await json('routine', 'jobs');
  assert.equal([jobs.scheduler.state, jobs.total], ['not_in_this_process', 0]);
  assert.is((await json('routine', 'activate', '1')).is_active, true);
  await json('routine', 'deactivate', '1');
  assert.match((await svc('routine', 'activate', '1')).stdout, /Routine 1 is active; next fire \d{4}-\d\d-\d\d \d\d:30 UTC \(\d{4}-\d\d-\d\d 07:30 Europe\/Berlin\)\./);
  assert.is((await json('routine', 'jobs')).jobs[0].routine_id, 1);
  const coverage = await json('routine', 'coverage', '1');
  assert.equal([coverage.judged, coverage.reason], [false, 'no_intent']);
  await json('routine', 'edit', '1', '--intent', 'ecology of animal communication');
  const judged = await json('routine', 'coverage', '1', '--limit', '5');
  assert.equal([judged.judged, judged.off_target.limit], [true, 5]);
  assert.is((await svc('routine', 'coverage', '1', '--limit', '101')).code, 2);
  assert.match((await svc('routine', 'show', '1')).stdout, /Routine 1: ecology \(active\)/);
  assert.is((await svc('routine', 'show', '99')).code, 3);
  assert.is((await svc('routine', 'show', 'x')).code, 2);
});

test('routine jobs says which process fires the routines (the scheduler lease holder), or that none does', async () => {
  assert.match((await svc('routine', 'jobs')).stdout, /no svc server or daemon of this data directory is scheduling: nothing fires until one runs/);
  const lease = fileLease({ dataDir: dirs.env.SVC_DATA_DIR!, runtimeId: 'r-daemon', role: () => 'daemon', now: () => new Date().toISOString() });
  assert.is(lease.acquire(), null);
  lease.recordPort(8799);
  try {
    const jobs = await json('routine', 'jobs');
    assert.equal([jobs.scheduler.held_by.role, jobs.scheduler.held_by.port, jobs.scheduler.held_by.pid], ['daemon', 8799, process.pid]);
    assert.match((await svc('routine', 'jobs')).stdout, new RegExp(`routines are fired by the daemon with pid ${process.pid} on port 8799`));
  } finally {
    lease.release();
  }
});

test('routine run runs in the foreground through the dispatcher; an inactive routine runs and says so', async () => {
  const run = await json('routine', 'run', '1');
  assert.equal([run.type, run.routine_id, run.status, run.result_count], ['routine', 1, 'completed', 2]);
  await json('routine', 'deactivate', '1');
  const inactive = await svc('routine', 'run', '1');
  assert.is(inactive.code, 0);
  assert.match(inactive.stderr, /inactive: this run happens once/);
  assert.is((await json('routine', 'show', '1')).is_active, false);
});

test('delete confirms off a terminal only with --yes, and removes the job', async () => {
  await json('routine', 'add', '--name', 'doomed', '--schedule', '@hourly', '--query', 'q', '--sources', 'crossref');
  const refused = await svc('routine', 'delete', '2');
  assert.is(refused.code, 2);
  assert.match(refused.stderr, /--yes/);
  assert.equal(await json('routine', 'delete', '2', '--yes'), { id: 2, deleted: true, job_removed: true, running_execution_id: null });
  assert.is((await svc('routine', 'delete', '2', '--yes')).code, 3);
});

test('config add, list, export, import, delete', async () => {
  const c = await json('config', 'add', '--name', 'saved sweep', '--type', 'sweep', '--parameters', '{"repositories":["crossref"],"query":"ecology"}');
  assert.equal([c.id, c.config_type], [1, 'sweep']);
  const bad = await svc('config', 'add', '--name', 'x', '--type', 'view', '--parameters', '{}');
  assert.equal([bad.code, /config_type must be one of dive, sweep, routine/.test(bad.stderr)], [2, true]);
  assert.is((await svc('config', 'add', '--name', 'x', '--type', 'dive', '--parameters', '{oops')).code, 2);
  const twin = await svc('--json', 'config', 'add', '--name', 'saved sweep', '--type', 'sweep', '--parameters', '{"repositories":["crossref"],"query":"frogs"}');
  assert.is(twin.code, 0, twin.stderr);
  assert.match(twin.stderr, /Note: configuration 1 is also called "saved sweep"; name it by id\./);
  assert.is((await json('config', 'delete', String(JSON.parse(twin.stdout).id), '--yes')).deleted, true);
  assert.equal((await json('config', 'list')).configurations.map((x: any) => x.name), ['saved sweep']);
  const file = path.join(dirs.root, 'configs.json');
  assert.is((await svc('config', 'export', '1', '-o', file)).code, 0);
  const stdout = await svc('config', 'export', '1');
  assert.is(JSON.parse(stdout.stdout).configurations[0].name, 'saved sweep');
  const again = await svc('config', 'import', file);
  assert.match(again.stdout, /Imported nothing new\.\n  already saved as 1: saved sweep \(sweep\); not imported again/);
  const other = path.join(dirs.root, 'other.json');
  fs.writeFileSync(other, JSON.stringify({ name: 'saved sweep', config_type: 'sweep', parameters: { repositories: ['crossref'], query: 'birds' } }));
  assert.match((await svc('config', 'import', other)).stdout, /Imported 1 configuration\(s\): 2 saved sweep\n  2 saved sweep shares its name with 1; name it by id/);
  assert.is((await svc('config', 'delete', '2')).code, 2);
  assert.equal(await json('config', 'delete', '2', '--yes'), { id: 2, deleted: true, executions_unlinked: 0 });
  assert.is((await svc('config', 'export', '2')).code, 3);
});

test('config add --help shows, for each config_type, an example of its own fields, and each example is accepted', async () => {
  const help = (await svc('config', 'add', '--help')).stdout;
  const local = tempDirs();
  try {
    for (const type of CONFIG_TYPES) {
      const m = new RegExp(`--type ${type} --parameters '([^']+)'`).exec(help);
      assert.ok(m, `an example for ${type}`);
      const r = await runCliInProcess(['--json', 'config', 'add', '--name', `example ${type}`, '--type', type, '--parameters', m![1]!], { env: local.env });
      assert.is(r.code, 0, `${type}: ${r.stderr}`);
    }
    assert.match(help, /"repository":"arxiv"/, 'a dive names one repository');
  } finally {
    local.cleanup();
  }
});

test('on a terminal, add asks: name, query, sources from the catalog, schedule with a preview of three fires, intent', async () => {
  const local = tempDirs();
  const ctx = createContext({ env: local.env, clock: { now: () => new Date('2026-01-05T12:00:00Z') }, log: silentLogger });
  const notes: string[] = [];
  const texts = ['coral watch', 'coral bleaching', '0 0 6 * * *', 'CRON_TZ=Europe/Berlin 0 6 * * *', '0 6 * * *', 'bleaching of coral reefs', '14'];
  const confirms = [false, true];
  const asked: string[] = [];
  let schedulesRefused = 0;
  const prompter: Prompter = {
    async text(opts) {
      asked.push(opts.message);
      let answer = texts.shift()!;
      while (opts.validate?.(answer)) {
        schedulesRefused++;
        answer = texts.shift()!;
      }
      return answer;
    },
    async multiselect(opts) {
      asked.push(opts.message);
      assert.ok(opts.options.some((o) => o.value === 'crossref'));
      assert.ok(opts.options.find((o) => o.value === 'openalex')?.hint, 'a source lacking its key is marked');
      assert.match(opts.options.find((o) => o.value === 'microsoft_academic')?.hint ?? '', /retired on/, 'a retired source is shown, marked');
      return ['crossref', 'pubmed'];
    },
    async confirm() {
      return confirms.shift()!;
    },
    note(message) {
      notes.push(message);
    },
    refuse() {},
  };
  try {
    const body = await askRoutine(ctx, prompter);
    assert.equal(body, {
      name: 'coral watch',
      schedule_cron: '0 6 * * *',
      parameters: { repositories: ['crossref', 'pubmed'], query: 'coral bleaching', window_days: 14 },
      intent: 'bleaching of coral reefs',
    });
    assert.is(schedulesRefused, 1, 'a six-field schedule is refused at the prompt');
    assert.is(notes.length, 2, 'a preview before each confirmation');
    assert.equal(notes[0]!.split('\n'), [
      '2026-01-06 05:00 UTC  (2026-01-06 06:00 Europe/Berlin)',
      '2026-01-07 05:00 UTC  (2026-01-07 06:00 Europe/Berlin)',
      '2026-01-08 05:00 UTC  (2026-01-08 06:00 Europe/Berlin)',
    ]);
    assert.equal(notes[1]!.split('\n'), ['2026-01-06 06:00 UTC', '2026-01-07 06:00 UTC', '2026-01-08 06:00 UTC']);
    assert.ok(asked.some((m) => /^Intent/.test(m)));
  } finally {
    await ctx.close();
    local.cleanup();
  }
});

test('on a terminal, add checks each answer when it is given: a duplicate name, a source that cannot run, a source needing dates without a window; each refusal asks again and names no flag', async () => {
  const local = tempDirs();
  const ctx = createContext({ env: local.env, log: silentLogger });
  const said: string[] = [];
  const refusals: string[] = [];
  // Answers to each question in turn; an answer the question's validate refuses is followed by the next one.
  const texts: Record<string, string[]> = {
    Name: ['', 'GNN', 'graph networks'],
    'Search query': ['graph neural networks'],
    Schedule: ['61 6 * * *', ''],
    Intent: ['x'.repeat(2001), ''],
    'Ask for papers': ['', '9999', 'week', '14'],
  };
  const picks = [['openalex', 'crossref'], ['microsoft_academic'], ['biorxiv', 'crossref']];
  let sourceOptions: { value: string; hint?: string; disabled?: boolean }[] = [];
  const prompter: Prompter = {
    async text(opts) {
      const queue = texts[Object.keys(texts).find((k) => opts.message.startsWith(k))!]!;
      for (;;) {
        const answer = queue.shift()!;
        const refused = opts.validate?.(answer);
        if (!refused) return answer;
        said.push(refused);
      }
    },
    async multiselect(opts) {
      sourceOptions = opts.options;
      return picks.shift()!;
    },
    async confirm() {
      return true;
    },
    note() {},
    refuse(message) {
      refusals.push(message);
    },
  };
  try {
    assert.is((await runCliInProcess(['routine', 'add', '--name', 'GNN', '--schedule', '@daily', '--query', 'gnn', '--sources', 'crossref'], { env: local.env })).code, 0);
    const body = await askRoutine(ctx, prompter);
    assert.equal(body, { name: 'graph networks', schedule_cron: '0 6 * * *', parameters: { repositories: ['biorxiv', 'crossref'], query: 'graph neural networks', window_days: 14 } });
    const option = (id: string) => sourceOptions.find((o) => o.value === id)!;
    assert.equal([option('openalex').disabled, option('openalex').hint], [true, 'Needs the openalex_api_key credential: svc credentials set openalex_api_key'], 'marked with the reason, not to be picked');
    assert.equal([option('microsoft_academic').disabled, /retired on \d{4}-\d\d-\d\d/.test(option('microsoft_academic').hint!)], [true, true]);
    assert.equal([option('biorxiv').disabled, option('biorxiv').hint], [false, 'answers only for a date window: give a number of days at the last question']);
    assert.not.ok(option('crossref').disabled || option('crossref').hint);
    assert.equal(said, [
      'The name must not be empty.',
      'A routine called "GNN" exists already (id 1); choose another name or change it with `svc routine edit 1`.',
      said[2]!,
      said[3]!,
      'biorxiv answers only for a date interval, so a routine with no date limit would get nothing from it; give a number of days (each fire asks for the papers of the last N days).',
      'Invalid value: Expected <=3650 but received 9999.',
      'A whole number of days, or Enter alone for none.',
    ]);
    assert.match(said[2]!, /minute/i, `a schedule out of range: ${said[2]}`);
    assert.match(said[3]!, /2000/, `an intent too long: ${said[3]}`);
    assert.equal(refusals, [
      'That is a source that cannot be searched now — openalex: Needs the openalex_api_key credential: svc credentials set openalex_api_key',
      'That is a source that cannot be searched now — microsoft_academic: Microsoft Academic was retired on 2021-12-31.',
    ]);
    for (const m of [...said, ...refusals]) assert.not.match(m, /--(name|sources|schedule|window-days|query|intent)/, `no flag the person never typed: ${m}`);
  } finally {
    await ctx.close();
    local.cleanup();
  }
});

test('routine add and edit with flags refuse a source that answers only for a date interval in a routine with no --window-days (exit 2, nothing stored)', async () => {
  const add = await svc('routine', 'add', '--name', 'preprints', '--schedule', '@daily', '--query', 'crispr', '--sources', 'crossref,biorxiv');
  assert.equal([add.code, add.stderr.trim()], [2, 'svc: biorxiv answers only for a date interval, so a routine with no date limit would get nothing from it; give --window-days N (each fire asks for the papers of the last N days).']);
  assert.not.ok((await json('routine', 'list')).routines.some((r: { name: string }) => r.name === 'preprints'), 'nothing stored');
  const made = await json('routine', 'add', '--name', 'preprints', '--schedule', '@daily', '--query', 'crispr', '--sources', 'crossref,biorxiv', '--window-days', '30', '--inactive');
  const none = await svc('routine', 'edit', String(made.id), '--window-days', 'none');
  assert.equal([none.code, /give --window-days N/.test(none.stderr)], [2, true], none.stderr);
  assert.is((await json('routine', 'show', String(made.id))).parameters.window_days, 30, 'unchanged');
  const http = await runCliInProcess(['--json', 'routine', 'edit', String(made.id), '--sources', 'medrxiv', '--window-days', '7'], { env });
  assert.is(http.code, 0, http.stderr);
});

test('routine show names the last run\'s sources that gave nothing, with the reason', async () => {
  const r = await json('routine', 'add', '--name', 'silent source', '--schedule', '0 6 * * *', '--query', 'ecology', '--sources', 'crossref', '--inactive');
  const down = `http://127.0.0.1:${await freePort()}`;
  await runCliInProcess(['routine', 'run', String(r.id)], { env: { ...env, SVC_SOURCE_CROSSREF_URL: down } });
  const shown = await svc('routine', 'show', String(r.id));
  assert.match(shown.stdout, /  last run   execution \d+ failed, 0 results \(0 new\); nothing from crossref \(upstream_failure\)\n/);
  await svc('routine', 'run', String(r.id));
  assert.match((await svc('routine', 'show', String(r.id))).stdout, /  last run   execution \d+ completed, 2 results \(\d+ new\)\n/, 'a source that answered is not named');
});

test('routine show: one result is "1 result", not "1 results"', async () => {
  const r = await json('routine', 'add', '--name', 'one result', '--schedule', '0 6 * * *', '--query', 'ecology', '--sources', 'crossref', '--max', '1', '--inactive');
  await svc('routine', 'run', String(r.id));
  assert.match((await svc('routine', 'show', String(r.id))).stdout, /  last run   execution \d+ completed, 1 result \(\d+ new\)\n/);
});

test('a followed profile cannot be deleted, and the refusal says how to take it off the routine (--no-follow)', async () => {
  const profile = await json('profile', 'add', 'André Kessler');
  const r = await json('routine', 'add', '--name', 'follows kessler', '--schedule', '0 8 * * 1', '--sources', 'crossref', '--follow', String(profile.id), '--inactive');
  assert.equal([r.entity, r.parameters.query], [{ profile_id: profile.id, mode: 'new_papers' }, '']);
  const del = await svc('profile', 'delete', String(profile.id), '--yes');
  assert.equal([del.code, del.stderr.includes(`svc routine edit ${r.id} --no-follow`)], [4, true], del.stderr);
  const off = await json('routine', 'edit', String(r.id), '--no-follow', '--query', 'chemical ecology');
  assert.equal([off.entity, off.parameters.query], [null, 'chemical ecology']);
  assert.is((await svc('profile', 'delete', String(profile.id), '--yes')).code, 0);
});

test('stored text with line breaks or escape sequences stays on its line in routine show and list', async () => {
  const r = await json('routine', 'add', '--name', 'red\u001b[31m alert\u202e', '--schedule', '0 6 * * *', '--query', 'ecology', '--sources', 'crossref', '--intent', 'line one\nline two', '--inactive');
  const shown = (await svc('routine', 'show', String(r.id))).stdout;
  assert.not.match(shown, /[\u001b\u202e]/, 'no escape sequence or bidirectional control reaches the terminal');
  assert.match(shown, /^Routine \d+: red\[31m alert \(inactive\)$/m);
  assert.match(shown, /^  intent     line one line two$/m);
  const listed = (await svc('routine', 'list')).stdout;
  assert.not.match(listed, /[\u001b\u202e]/);
  assert.match(listed, /red\[31m alert$/m);
});

test('the man page documents every parameter key, config_type and nickname', () => {
  const page = fs.readFileSync(path.join(ROOT, 'man', 'svc-routine.1'), 'utf8').replace(/\\-/g, '-');
  for (const key of [...PARAMETER_KEYS, 'date_from', 'ephemeral_credentials', 'request_id']) assert.ok(page.includes(key), `parameter ${key}`);
  for (const type of CONFIG_TYPES) assert.match(page, new RegExp(`\\.B ${type}\\n`), `config_type ${type}`);
  for (const nick of NICKNAMES) assert.ok(page.includes(nick), nick);
  assert.match(page, /CRON_TZ=/);
  assert.match(page, /3600 seconds/);
});

test.run();

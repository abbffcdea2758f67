import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { fixture, freePort, noDnsEnv, ROOT, runCli, tempDirs, waitFor } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startStub } from './_stub.js';
import { cliTree, mentionProblems } from './_man.js';

test('svc dive piped: one line per event on stderr, the summary on stdout, exit 0', async () => {
  const dirs = tempDirs();
  const stub = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: 2 }]);
  try {
    const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: stub.url };
    const r = await runCliInProcess(['dive', 'crossref', 'ecology', '--max', '2'], { env });
    assert.is(r.code, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.match(lines[0]!, /^Execution 1: dive "ecology"/);
    assert.ok(lines.some((l) => /\[crossref\] Crossref: page 1/.test(l)));
    assert.match(lines[lines.length - 1]!, /INFO +completed: 2 documents/);
    assert.match(r.stdout, /^Execution 1 completed: 2 documents \(2 new\)/);
    assert.match(r.stdout, /Report: .*execution-1\.txt/);
    const listed = await runCliInProcess(['executions', 'list'], { env });
    assert.match(listed.stdout, /SOURCES\n.*crossref 2$/m, 'per-source counts in the list');
    const listedJson = JSON.parse((await runCliInProcess(['--json', 'executions', 'list'], { env })).stdout);
    assert.equal(listedJson.executions[0].sources, [{ source: 'crossref', status: 'answered', record_count: 2, zero_reason: null }]);
    const json = await runCliInProcess(['--json', 'executions', 'show', '1'], { env });
    assert.is(JSON.parse(json.stdout).result_count, 2);
    const report = await runCliInProcess(['executions', 'report', '1'], { env });
    assert.match(report.stdout, /Communicating Ecology/);
    const bib = await runCliInProcess(['export', 'references', '--exec', '1', '--format', 'bibtex'], { env });
    assert.is((bib.stdout.match(/^@/gm) ?? []).length, 2);
    const saved = await runCliInProcess(['config', 'add', '--name', 'eco', '--type', 'dive', '--parameters', '{"repository":"crossref","query":"ecology","max_results":2}'], { env });
    assert.is(saved.code, 0, saved.stderr);
    const again = await runCliInProcess(['--json', 'dive', '--config', 'eco'], { env });
    assert.is(again.code, 0, again.stderr + again.stdout);
    const second = JSON.parse(again.stdout);
    assert.is(second.result_count, 2);
    assert.is(second.query, 'ecology');
    const wrongType = await runCliInProcess(['sweep', '--config', 'eco'], { env });
    assert.is(wrongType.code, 2);
    assert.match(wrongType.stderr, /is a saved dive; run it with `svc dive --config 1`/);
  } finally {
    await stub.close();
    dirs.cleanup();
  }
});

test('one record is "1 record" and one document "1 document" in the summary, the run log and the report', async () => {
  const dirs = tempDirs();
  const stub = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: 2 }]);
  try {
    const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: stub.url };
    const r = await runCliInProcess(['dive', 'crossref', 'ecology', '--max', '1'], { env });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Execution 1 completed: 1 document \(1 new\)$/m);
    assert.match(r.stdout, /^  crossref  1 record \(1 new\)$/m);
    assert.match(r.stderr, /Crossref: 1 record \(1 new\)/);
    assert.match(r.stderr, /completed: 1 document \(1 new\)/);
    const report = (await runCliInProcess(['executions', 'report', '1'], { env })).stdout;
    assert.match(report, /Crossref +1 record \(1 new\), 1 page/);
    assert.match(report, /^Results: +1 document \(1 new to the corpus\)$/m);
  } finally {
    await stub.close();
    dirs.cleanup();
  }
});

test('svc dive --config with a saved routine: exit 2, and every command the refusal names exists with those flags', async () => {
  const dirs = tempDirs();
  try {
    const saved = await runCliInProcess(['config', 'add', '--name', 'weekly', '--type', 'routine', '--parameters', '{"repositories":["arxiv"],"query":"graphs","window_days":7}'], { env: dirs.env });
    assert.is(saved.code, 0, saved.stderr);
    const tree = await cliTree();
    for (const command of ['dive', 'sweep']) {
      const r = await runCliInProcess([command, '--config', 'weekly'], { env: dirs.env });
      assert.is(r.code, 2, r.stderr);
      assert.match(r.stderr, /is a saved routine/);
      // It named `svc routine add --config 1`, a flag routine add does not have.
      const named = [...r.stderr.matchAll(/`svc ([^`]+)`/g)].map((m) => m[1]!.split(' '));
      assert.ok(named.length > 0, r.stderr);
      assert.equal(named.flatMap((words) => mentionProblems(tree, words, { countArgs: true })), [], r.stderr);
    }
  } finally {
    dirs.cleanup();
  }
});

test('svc sweep --json prints one JSON document naming the zero reason', async () => {
  const dirs = tempDirs();
  const stub = await startStub([{ path: '/works', body: fixture('crossref/works-query-empty-adfaaf.json') }]);
  try {
    const r = await runCliInProcess(['--json', 'sweep', 'adfaaf', '--sources', 'crossref'], { env: { ...dirs.env, SVC_SOURCE_CROSSREF_URL: stub.url } });
    assert.is(r.code, 0, 'crossref answered (empty), so the run completed');
    const detail = JSON.parse(r.stdout);
    assert.is(detail.status, 'completed');
    assert.equal(Object.fromEntries(detail.sources.map((s: any) => [s.source, s.zero_reason])), { crossref: 'answered_empty' });
    assert.not.match(r.stderr, /INFO/, 'no progress lines with --json');
  } finally {
    await stub.close();
    dirs.cleanup();
  }
});

test('a source missing its key or retired is a usage error before anything runs', async () => {
  const dirs = tempDirs();
  try {
    const key = await runCliInProcess(['--json', 'sweep', 'adfaaf', '--sources', 'crossref,core'], { env: dirs.env });
    assert.is(key.code, 2, key.stderr);
    assert.equal(JSON.parse(key.stdout).error, 'missing_key');
    assert.match(key.stderr, /core: Needs the core_api_key credential: svc credentials set core_api_key/);
    const retired = await runCliInProcess(['dive', 'microsoft_academic', 'x'], { env: dirs.env });
    assert.is(retired.code, 2);
    assert.match(retired.stderr, /retired/);
    const list = await runCliInProcess(['--json', 'executions', 'list'], { env: dirs.env });
    assert.is(JSON.parse(list.stdout).executions.length, 0, 'no run was recorded');
  } finally {
    dirs.cleanup();
  }
});

test('a source that answers only for a date interval: a dive of it without dates is refused before anything is recorded; a sweep says before starting it will give nothing', async () => {
  const dirs = tempDirs();
  const stub = await startStub([{ path: '/works', body: fixture('crossref/works-query-empty-adfaaf.json') }]);
  const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: stub.url, SVC_SOURCE_BIORXIV_URL: stub.url, SVC_SOURCE_MEDRXIV_URL: stub.url };
  const runs = async () => JSON.parse((await runCliInProcess(['--json', 'executions', 'list'], { env })).stdout).executions;
  try {
    const dive = await runCliInProcess(['dive', 'biorxiv', 'crispr'], { env });
    assert.is(dive.code, 2, dive.stderr);
    assert.is(dive.stdout, '');
    assert.match(dive.stderr.trim(), /^svc: biorxiv answers only for a date interval: give --from and --to \(e\.g\. --from \d{4}-\d\d-\d\d --to \d{4}-\d\d-\d\d\)\.$/);
    const json = await runCliInProcess(['--json', 'dive', 'medrxiv', 'crispr'], { env });
    assert.equal([json.code, JSON.parse(json.stdout).error], [2, 'dates_required']);
    const both = await runCliInProcess(['sweep', 'crispr', '--sources', 'biorxiv,medrxiv'], { env });
    assert.is(both.code, 2);
    assert.match(both.stderr, /^svc: biorxiv and medrxiv answer only for a date interval: give --from and --to/);
    assert.equal(await runs(), [], 'nothing was recorded');

    const sweep = await runCliInProcess(['sweep', 'adfaaf', '--sources', 'crossref,biorxiv'], { env });
    assert.is(sweep.code, 0, sweep.stderr);
    const said = sweep.stderr.indexOf('Without --from and --to, biorxiv will give nothing (window_unanswerable: it answers only for a date interval); the other sources are asked.');
    assert.ok(said >= 0 && said < sweep.stderr.indexOf('Execution '), `said before the run starts: ${sweep.stderr}`);
    const [run] = await runs();
    const detail = JSON.parse((await runCliInProcess(['--json', 'executions', 'show', String(run.id)], { env })).stdout);
    assert.is(detail.sources.find((s: { source: string }) => s.source === 'biorxiv').zero_reason, 'window_unanswerable', 'the spec\'s zero reason is kept');
  } finally {
    await stub.close();
    dirs.cleanup();
  }
});

test('export references of a failed run (or one that found nothing) writes no empty file: it says why, exit 4', async () => {
  const dirs = tempDirs();
  const empty = await startStub([{ path: '/works', body: fixture('crossref/works-query-empty-adfaaf.json') }]);
  const down = `http://127.0.0.1:${await freePort()}`;
  try {
    const failed = await runCliInProcess(['dive', 'crossref', 'ecology'], { env: { ...dirs.env, SVC_SOURCE_CROSSREF_URL: down } });
    assert.is(failed.code, 1, failed.stderr);
    const out = path.join(dirs.root, 'refs.bib');
    const r = await runCliInProcess(['export', 'references', '--exec', '1', '-o', out], { env: dirs.env });
    assert.equal([r.code, r.stderr.trim()], [4, 'svc: Execution 1 failed and holds no papers (`svc executions show 1` says why); there is nothing to export, so no file was written.']);
    assert.not.ok(fs.existsSync(out), 'no empty file');
    const piped = await runCliInProcess(['export', 'references', '--exec', '1'], { env: dirs.env });
    assert.equal([piped.code, piped.stdout], [4, '']);
    const json = await runCliInProcess(['--json', 'export', 'references', '--exec', '1', '--format', 'csv'], { env: dirs.env });
    assert.equal([json.code, JSON.parse(json.stdout).error], [4, 'nothing_to_export']);
    assert.is((await runCliInProcess(['dive', 'crossref', 'adfaaf'], { env: { ...dirs.env, SVC_SOURCE_CROSSREF_URL: empty.url } })).code, 0);
    const nothing = await runCliInProcess(['export', 'references', '--exec', '2', '-o', out], { env: dirs.env });
    assert.equal([nothing.code, nothing.stderr.trim()], [4, 'svc: Execution 2 completed with no papers (`svc executions show 2` says why); there is nothing to export, so no file was written.']);
    const both = await runCliInProcess(['export', 'references', '--exec', '1,2'], { env: dirs.env });
    assert.match(both.stderr, /^svc: Executions 1 \(failed\), 2 \(completed\) hold no papers; there is nothing to export/);
    assert.not.ok(fs.existsSync(out));
  } finally {
    await empty.close();
    dirs.cleanup();
  }
});

test('flags are validated with the same rules as the API and named as flags', async () => {
  const dirs = tempDirs();
  try {
    const r = await runCliInProcess(['dive', 'crossref', 'x', '--from', '2020-13-01'], { env: dirs.env });
    assert.is(r.code, 2);
    assert.match(r.stderr, /--from/);
    assert.is((await runCliInProcess(['dive', 'nowhere', 'x'], { env: dirs.env })).code, 2);
    assert.is((await runCliInProcess(['dive', 'crossref', 'x', '--max', 'lots'], { env: dirs.env })).code, 2);
    assert.is((await runCliInProcess(['executions', 'show', '42'], { env: dirs.env })).code, 3);
    for (const [args, pattern] of [
      [['--from', '2999-01-01'], /--from 2999-01-01 is in the future/],
      [['--from', '2024-05-01', '--to', '2024-04-01'], /--from 2024-05-01 is after --to 2024-04-01/],
      [['--max', '0'], /--max must be a whole number from 1 to 10000, not "0"/],
      [['--max', '1.5'], /--max must be a whole number from 1 to 10000/],
      [['--max', '10001'], /--max/],
    ] as const) {
      const bad = await runCliInProcess(['dive', 'crossref', 'x', ...args], { env: dirs.env });
      assert.is(bad.code, 2, args.join(' '));
      assert.match(bad.stderr, pattern);
    }
    const noQuery = await runCliInProcess(['dive', 'crossref'], { env: dirs.env });
    assert.is(noQuery.code, 2);
    assert.match(noQuery.stderr, /needs a repository and a query/);
    assert.is((await runCliInProcess(['dive', 'crossref', 'x', '--config', 'nothing-saved'], { env: dirs.env })).code, 3);
  } finally {
    dirs.cleanup();
  }
});

test('offline: a dive ends at once (exit 1), names ENOTFOUND in the summary, log and report, and says the machine looks offline', async () => {
  const dirs = tempDirs();
  try {
    // A machine with no DNS (test/_no-dns.ts): the name fails at once, as offline, and no resolver is asked.
    // Run as a process: the hook is loaded into that process, not into this one.
    const env = { ...dirs.env, ...noDnsEnv(), SVC_SOURCE_ARXIV_URL: 'http://export.arxiv.invalid/api' };
    const r = await runCli(['dive', 'arxiv', 'x'], { env });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stdout, /arxiv +nothing: upstream_failure — arXiv: ENOTFOUND export\.arxiv\.invalid/);
    assert.match(r.stdout, /This machine looks offline/);
    const log = await runCli(['executions', 'log', '1'], { env });
    assert.match(log.stdout, /ENOTFOUND export\.arxiv\.invalid/);
    const report = await runCli(['executions', 'report', '1'], { env });
    assert.match(report.stdout, /ENOTFOUND export\.arxiv\.invalid/);
    assert.match((await runCli(['executions', 'list'], { env })).stdout, /arxiv 0 \(upstream_failure\)/, 'the zero reason in the list');
    const record = JSON.parse((await runCli(['executions', 'record', '1'], { env })).stdout);
    assert.match(JSON.stringify(record), /"exception_class":"ENOTFOUND"/);
    // "At once" is the run's own time, from its record (a process's start on a loaded machine is not the
    // subject): no retry, whose backoff starts at sourceRetryBaseMs (1 s), was waited for.
    const ran = Date.parse(record.execution.finished_at_utc) - Date.parse(record.execution.started_at_utc);
    assert.ok(ran < 1500, `the run took ${ran} ms`);
  } finally {
    dirs.cleanup();
  }
});

test('Ctrl-C cancels cleanly: status cancelled, results kept, exit 130', async () => {
  const dirs = tempDirs();
  const fast = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json') }]);
  const hang = await startStub([{ path: '/search/publ/api', body: fixture('dblp/publ-search-test-h1-f1.json'), delayMs: 60_000 }]);
  try {
    const env = { PATH: process.env.PATH, ...dirs.env, SVC_SOURCE_CROSSREF_URL: fast.url, SVC_SOURCE_DBLP_URL: hang.url };
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'sweep', 'ecology', '--sources', 'crossref,dblp', '--max', '2'], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    await waitFor(() => hang.requests.length > 0 && /Crossref: 2 records/.test(stderr), 15_000, 'crossref answered and dblp asked');
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGINT');
    assert.is(await exited, 130);
    assert.match(stderr, /Cancelling/);
    assert.match(stdout, /Execution 1 cancelled: 2 documents/);
    assert.match(stdout, /dblp +nothing: cancelled before it answered/);
  } finally {
    await fast.close();
    await hang.close();
    dirs.cleanup();
  }
});

test('on a terminal, Ctrl-C leaves no spinner residue: the last frame marks the cancelled source and keeps no spinner or footer', async () => {
  const dirs = tempDirs();
  const fast = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json') }]);
  const hang = await startStub([{ path: '/search/publ/api', body: fixture('dblp/publ-search-test-h1-f1.json'), delayMs: 60_000 }]);
  try {
    const env = { PATH: process.env.PATH, ...dirs.env, SVC_SOURCE_CROSSREF_URL: fast.url, SVC_SOURCE_DBLP_URL: hang.url, TERM: 'xterm' };
    // util-linux script(1) gives the command a real pseudo-terminal; ^C written to it is the terminal's interrupt.
    const command = `${process.execPath} ${path.join(ROOT, 'bin', 'svc.js')} sweep ecology --sources crossref,dblp --max 2`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env });
    let screen = '';
    child.stdout.on('data', (d) => (screen += d));
    await waitFor(() => hang.requests.length > 0 && /2 records/.test(screen), 15_000, 'crossref answered and dblp asked');
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.stdin.write('\x03');
    assert.is(await exited, 130);
    const frames = screen.split(/\x1b\[\d+A/);
    const last = frames[frames.length - 1]!;
    assert.ok(frames.length > 2, 'progress was redrawn in place');
    assert.not.match(last, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/, 'no spinner left in the last frame');
    assert.match(last, /✖ dblp +nothing: cancelled before it answered/, 'the cancelled source is marked, not spinning');
    assert.match(last, /✔ crossref +2 records/);
    assert.not.match(last.split('Execution 1 cancelled')[0]!, /Cancelling/, 'the footer is cleared with the last frame');
    assert.match(last, /Execution 1 cancelled: 2 documents/);
  } finally {
    await fast.close();
    await hang.close();
    dirs.cleanup();
  }
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixture, runCli, tempDirs } from './_setup.js';
import { runCliInProcess } from './_cli.js';

// runCliInProcess stands in for a process in most command tests: it must answer what the process answers.
test('a command run in-process answers the exit code and the bytes on each stream that `node bin/svc.js` does', async () => {
  const dirs = tempDirs();
  try {
    const cases = [
      { args: ['settings', 'get', 'email'] },
      { args: ['--json', 'settings', 'get', 'email', 'smtp_port'] },
      { args: ['health'] },
      { args: ['settings', 'set', 'email', 'smtp_port', 'many'] },
      { args: ['credentials', 'set', 'openai_api_key'], stdin: 'sk-in-process-abcdefghijkl\n' },
      { args: ['--json', 'credentials', 'list'] },
    ];
    for (const { args, stdin } of cases) {
      const inProcess = await runCliInProcess(args, { env: dirs.env, stdin });
      const spawned = await runCli(args, { env: dirs.env, stdin });
      assert.equal(inProcess, spawned, args.join(' '));
    }
  } finally {
    dirs.cleanup();
  }
});

test('a command run in-process builds its Context with the clock and fetch it is handed (the command factory)', async () => {
  const dirs = tempDirs();
  try {
    const asked: string[] = [];
    const fetch = (async (input: string | URL | Request) => {
      asked.push(String(input instanceof Request ? input.url : input));
      return new Response(fixture('crossref/works-query-ecology-rows2.json'), { headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const at = new Date('2031-05-06T07:08:09.000Z');
    const deps = { fetch, clock: { now: () => at } };
    // No source server runs: the only way to an answer is the fetch handed over.
    const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: 'http://127.0.0.1:9/nowhere' };
    const dive = await runCliInProcess(['--json', 'dive', 'crossref', 'ecology', '--max', '2'], { env, deps });
    assert.is(dive.code, 0, dive.stderr);
    assert.is(JSON.parse(dive.stdout).result_count, 2);
    assert.ok(asked.some((url) => url.startsWith('http://127.0.0.1:9/nowhere/works')), asked.join('\n'));
    const shown = JSON.parse((await runCliInProcess(['--json', 'executions', 'show', '1'], { env })).stdout);
    assert.is(shown.started_at_utc, at.toISOString(), 'started by the clock handed over');
  } finally {
    dirs.cleanup();
  }
});

test.run();

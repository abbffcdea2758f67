/**
 * A second Ctrl-C leaves at once without a command calling process.exit: the command asks
 * io.leave, runCli answers 130 while the work still winds down, and only bin/svc.js exits. So a
 * command run in-process (a test) no longer ends the process that runs it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from '../commands/main.js';
import type { Io } from '../commands/lib/io.js';
import { onInterrupt } from '../commands/lib/bar.js';
import { fixture, tempDirs, waitFor } from './_setup.js';
import { startStub } from './_stub.js';

function capturingIo(env: Record<string, string | undefined>): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => void stdout.push(t), write: (t) => void stdout.push(t), err: (t) => void stderr.push(t), readStdin: async () => '', stdoutIsTTY: false, stdinIsTTY: false, stderrIsTTY: false, env, json: false };
}

test('onInterrupt: the first Ctrl-C asks to stop, the second leaves with 130 through io.leave', () => {
  const left: number[] = [];
  let cancels = 0;
  const io: Io = { ...capturingIo({}), leave: (code) => void left.push(code) };
  const release = onInterrupt(io, 'Stopping…', () => cancels++);
  try {
    process.emit('SIGINT');
    assert.equal([cancels, left], [1, []]);
    process.emit('SIGINT');
    assert.equal([cancels, left], [1, [130]]);
  } finally {
    release();
  }
});

test('svc sweep in-process: a second Ctrl-C makes runCli answer 130 at once, before the run has ended', async () => {
  const dirs = tempDirs();
  const fast = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json') }]);
  const hang = await startStub([{ path: '/search/publ/api', body: fixture('dblp/publ-search-test-h1-f1.json'), delayMs: 60_000 }]);
  try {
    const io = capturingIo({ ...dirs.env, SVC_SOURCE_CROSSREF_URL: fast.url, SVC_SOURCE_DBLP_URL: hang.url });
    const ran = runCli(['sweep', 'ecology', '--sources', 'crossref,dblp', '--max', '2'], io);
    await waitFor(() => hang.requests.length > 0 && fast.requests.length > 0, 15_000, 'both sources asked');
    process.emit('SIGINT');
    process.emit('SIGINT');
    assert.is(await ran, 130);
    assert.match(io.stderr.join('\n'), /Cancelling/);
    assert.not.match(io.stdout.join('\n'), /Execution 1 cancelled/, 'runCli answered without waiting for the summary');
    // The run still ends as cancelled, in the background, and its command goes on to its end.
    await waitFor(() => io.exitCode !== undefined, 15_000, 'the cancelled run to end');
    assert.match(io.stdout.join('\n'), /Execution 1 cancelled/);
  } finally {
    await fast.close();
    await hang.close();
    dirs.cleanup();
  }
});

test.run();

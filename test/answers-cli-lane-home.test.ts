/**
 * The agent CLI's owned folder (working directory, system prompt, empty MCP
 * configuration) of the answers lane and of the run summary's lane goes away
 * on every failure path, including a prompt file that cannot be written.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliLane } from '../src/answers/runtime-cli.js';
import { askModel, type SummaryConnection } from '../src/executions/ai-connection.js';
import type { LaneJob } from '../src/answers/lane.js';
import type { Context } from '../src/context.js';

/** Run `fn` with os.tmpdir() in a fresh folder and writes of system.txt failing as on a full disk. */
async function withFailingPromptWrite(fn: () => Promise<unknown>): Promise<{ error: unknown; left: string[] }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-lane-home-test-'));
  const oldTmp = process.env.TMPDIR;
  const realWrite = fs.writeFileSync;
  process.env.TMPDIR = tmp;
  (fs as { writeFileSync: typeof fs.writeFileSync }).writeFileSync = ((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (typeof file === 'string' && file.endsWith('system.txt')) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return (realWrite as (...a: unknown[]) => void)(file, ...rest);
  }) as typeof fs.writeFileSync;
  let error: unknown;
  try {
    assert.is(os.tmpdir(), tmp, 'the lane makes its folder here');
    await fn();
  } catch (err) {
    error = err;
  } finally {
    (fs as { writeFileSync: typeof fs.writeFileSync }).writeFileSync = realWrite;
    if (oldTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = oldTmp;
  }
  const left = fs.readdirSync(tmp);
  fs.rmSync(tmp, { recursive: true, force: true });
  return { error, left };
}

const ctx = {
  random: { uuid: () => '00000000-0000-4000-8000-000000000001' },
  config: { ai: { searchPath: '/nonexistent' }, osDirs: { home: '/nonexistent' } },
} as unknown as Context;

test('the answers lane removes its folder when the system prompt cannot be written', async () => {
  let spawned = false;
  const job = {
    ctx,
    limits: {},
    payload: { choices: { model: null, effort: null } },
    system: 'system prompt',
    user: 'user prompt',
    signal: new AbortController().signal,
    spawn: () => {
      spawned = true;
      throw new Error('not reached');
    },
  } as unknown as LaneJob;
  const { error, left } = await withFailingPromptWrite(() => cliLane({ binary: '/nonexistent/agent' })(job).next());
  assert.match(String(error), /ENOSPC/, 'the write failed');
  assert.not.ok(spawned, 'nothing was started');
  assert.equal(left, [], 'no svc-answer-* folder is left behind');
});

test('the run summary\'s agent lane removes its folder when the system prompt cannot be written', async () => {
  const connection = { kind: 'cli', cli: { id: 'agent_code' }, binary: '/nonexistent/agent', model: null, maxOutputTokens: 64 } as unknown as SummaryConnection;
  const { error, left } = await withFailingPromptWrite(() => askModel(ctx, connection, { system: 'system prompt', user: 'user prompt', signal: new AbortController().signal, maxChars: 100 }));
  assert.match(String(error), /ENOSPC/);
  assert.equal(left, [], 'no svc-summary-* folder is left behind');
});

test.run();

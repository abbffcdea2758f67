/**
 * What follows a settled run (issue 31, item 2): the executions room
 * announces it, and the composition root (src/after-run-steps.ts) registers
 * the steps of the other rooms on every context, in their documented order.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../src/context.js';
import { afterRunStepNames, registerAfterRunStep, runAfterRunSteps } from '../src/executions/after-run.js';
import { createLogger } from '../src/log.js';
import { tempDirs } from './_setup.js';

test('every context registers the after-run steps in their order: the AI summary before the delivery that carries it, embedding last', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env });
  try {
    assert.equal(afterRunStepNames(ctx), ['ai summary', 'delivery', 'watch profile matching', 'embed-new-documents']);
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test('the steps run one after the other in the order registered; one that throws is logged and the next still runs', async () => {
  const dirs = tempDirs();
  const lines: string[] = [];
  const ctx = createContext({ env: dirs.env, log: createLogger({ sink: (line) => lines.push(line) }) });
  const ran: string[] = [];
  try {
    registerAfterRunStep(ctx, 'slow', async () => {
      await new Promise((r) => setTimeout(r, 30));
      ran.push('slow');
    });
    registerAfterRunStep(ctx, 'broken', () => {
      ran.push('broken');
      throw new Error('no such thing');
    });
    registerAfterRunStep(ctx, 'last', () => {
      ran.push('last');
    });
    // An execution that does not exist: the registered steps of the other rooms find nothing to do.
    await runAfterRunSteps(ctx, { id: 424242, status: 'completed' });
    assert.equal(ran, ['slow', 'broken', 'last']);
    assert.ok(lines.some((l) => /after-run step broken failed for execution 424242.*no such thing/.test(l)), lines.join('\n'));
    assert.not.ok(lines.some((l) => /after-run step (ai summary|delivery|watch profile matching|embed-new-documents) failed/.test(l)), lines.join('\n'));
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test.run();

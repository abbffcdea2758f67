/**
 * `svc routine add` on a real terminal, as a person types it: each answer is
 * checked when it is given, a refusal is shown under the question and the
 * question asked again, and what was typed before is kept.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, tempDirs } from './_setup.js';
import { ENTER, onPty, SPACE } from './_pty.js';

test('a duplicate name is refused at the name question and asked again; the routine is then made from the answers', async () => {
  const dirs = tempDirs();
  try {
    assert.is((await runCli(['routine', 'add', '--name', 'GNN', '--schedule', '@daily', '--query', 'gnn', '--sources', 'crossref'], { env: dirs.env })).code, 0);
    const r = await onPty(['routine', 'add'], dirs.env, [
      { after: 'Name of the routine', keys: `GNN${ENTER}` },
      { after: 'A routine called "GNN" exists already (id 1); choose another name or change it with `svc routine edit 1`.', keys: `\u0015graph networks${ENTER}` },
      { after: 'Search query', keys: `graph neural networks${ENTER}` },
      { after: 'Sources to search', keys: `${SPACE}${ENTER}` },
      { after: 'Schedule', keys: ENTER },
      { after: 'Use this schedule?', keys: ENTER },
      { after: 'Intent', keys: ENTER },
      { after: 'Ask for papers', keys: ENTER },
    ]);
    assert.is(r.code, 0, r.screen);
    assert.not.match(r.screen, /--name|--sources/, 'no flag the person never typed');
    const routines = JSON.parse((await runCli(['--json', 'routine', 'list'], { env: dirs.env })).stdout).routines;
    const made = routines.find((x: { name: string }) => x.name === 'graph networks');
    assert.ok(made, r.screen);
    assert.is(made.parameters.query, 'graph neural networks');
  } finally {
    dirs.cleanup();
  }
});

test.run();

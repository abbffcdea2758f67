import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, tempDirs } from './_setup.js';
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

test.run();

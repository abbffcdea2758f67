/**
 * svc's questions on a real terminal check each answer when it is given, by
 * the rule the command applies afterwards: a refused answer is said under the
 * question, which is asked again; what can be refused before a question is.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, tempDirs } from './_setup.js';
import { ENTER, onPty } from './_pty.js';

test('credentials set: an empty value is refused at the hidden prompt and asked again; the value typed next is stored', async () => {
  const dirs = tempDirs();
  try {
    const r = await onPty(['credentials', 'set', 'openai_api_key'], dirs.env, [
      { after: 'Value for openai_api_key', keys: ENTER },
      { after: 'No value given for openai_api_key.', keys: `sk-typed-1${ENTER}` },
    ]);
    assert.is(r.code, 0, r.screen);
    assert.match(r.screen, /openai_api_key: stored/);
    assert.not.match(r.screen, /sk-typed-1/, 'the value is never shown');
    const list = JSON.parse((await runCli(['--json', 'credentials', 'list'], { env: dirs.env })).stdout).credentials;
    assert.is(list.find((c: { name: string }) => c.name === 'openai_api_key').status, 'present');
  } finally {
    dirs.cleanup();
  }
});

test('cloud link: a bad URL or folder is refused before the password is asked for; with none stored, an empty password is refused at the prompt', async () => {
  const dirs = tempDirs();
  try {
    const url = await onPty(['cloud', 'link', 'webdav.example.org', '--user', 'me'], dirs.env, []);
    assert.is(url.code, 2, url.screen);
    assert.match(url.screen, /svc: The cloud URL is not a URL\./);
    assert.not.match(url.screen, /Cloud password/, 'not asked for a password first');
    const folder = await onPty(['cloud', 'link', 'http://127.0.0.1:9/dav/', '--user', 'me', '--folder', '../up'], dirs.env, []);
    assert.is(folder.code, 2, folder.screen);
    assert.not.match(folder.screen, /Cloud password/);
    const empty = await onPty(['cloud', 'link', 'http://127.0.0.1:9/dav/', '--user', 'me'], dirs.env, [
      { after: 'Cloud password', keys: ENTER },
      { after: 'Give the password (or app password) of the cloud account.', keys: '\u0003' },
    ]);
    assert.is(empty.code, 130, empty.screen);
    assert.match(empty.screen, /Nothing linked\./);
  } finally {
    dirs.cleanup();
  }
});

test.run();

/**
 * The window shell's parts in-process: launch codes (once, 10 minutes, the
 * refusal's reason), what the renderer server answers from dist/web/ (app
 * routes get index.html, /assets/ only plain names, never through a link),
 * the CSP, and the fallback's idle rule with a clock of the test's own.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { createLaunchCodes, LAUNCH_CODE_TTL_MS } from '../src/window/launch-codes.js';
import { isAppRoute, readStatic } from '../src/window/static-files.js';
import { contentSecurityPolicy } from '../src/window/headers.js';
import { browserCommand } from '../src/window/open-browser.js';
import { systemRandom } from '../src/random.js';
import { watchFallbackIdle } from '../server/fallback-idle.js';
import { startTestServer, tempDirs, waitFor } from './_setup.js';

test('a launch code is taken once and for 10 minutes; each refusal says why and how to get in', () => {
  let now = 1_000_000;
  const codes = createLaunchCodes(systemRandom, () => now);
  const a = codes.mint();
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(codes.check(a), { ok: true });
  assert.equal(codes.check(a), { ok: true }, 'a check does not use it up');
  assert.equal(codes.redeem(a), { ok: true });
  const used = codes.redeem(a);
  assert.is(used.ok === false && used.reason, 'launch_code_used');
  assert.match(used.ok === false ? used.message : '', /svc window/);
  const b = codes.mint();
  now += LAUNCH_CODE_TTL_MS;
  const late = codes.redeem(b);
  assert.is(late.ok === false && late.reason, 'launch_code_expired');
  now += LAUNCH_CODE_TTL_MS;
  codes.mint(); // forgets codes long expired
  const forgotten = codes.redeem(b);
  assert.is(forgotten.ok === false && forgotten.reason, 'launch_code_invalid');
  const unknown = codes.redeem('nope');
  assert.is(unknown.ok === false && unknown.reason, 'launch_code_invalid');
});

test('app routes get index.html; /assets/ serves plain names only, hashed ones immutable; nothing else, nothing through a link', () => {
  const dirs = tempDirs();
  try {
    const web = path.join(dirs.root, 'web');
    const notBuilt = readStatic(web, '/explore');
    assert.is(notBuilt.kind, 'not_built');
    assert.match(notBuilt.kind === 'not_built' ? notBuilt.html : '', /npm run build/);
    fs.mkdirSync(path.join(web, 'assets', 'chunks'), { recursive: true });
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>svc</title>');
    fs.writeFileSync(path.join(web, 'assets', 'main-AB12CD34.js'), 'export {}');
    fs.writeFileSync(path.join(web, 'assets', 'chunks', 'page-QQ22RR33.css'), 'body{}');
    fs.writeFileSync(path.join(web, 'assets', 'notes.txt'), 'x');
    fs.writeFileSync(path.join(dirs.root, 'secret.txt'), 'secret');
    fs.symlinkSync(path.join(dirs.root, 'secret.txt'), path.join(web, 'assets', 'link-AB12CD34.js'));
    for (const p of ['/', '/search', '/runs/3', '/explore', '/papers/12', '/queue', '/analytics', '/watchdog', '/part-two/route']) {
      assert.ok(isAppRoute(p), p);
      assert.is(readStatic(web, p).kind, 'app', p);
    }
    const main = readStatic(web, '/assets/main-AB12CD34.js');
    assert.equal(main.kind === 'asset' && [main.type, main.immutable, main.body.toString()], ['text/javascript; charset=utf-8', true, 'export {}']);
    const css = readStatic(web, '/assets/chunks/page-QQ22RR33.css');
    assert.equal(css.kind === 'asset' && [css.type, css.immutable], ['text/css; charset=utf-8', true]);
    const plain = readStatic(web, '/assets/notes.txt');
    assert.equal(plain.kind === 'asset' && plain.immutable, false, 'a name without a hash may change: not kept');
    for (const p of ['/favicon.ico', '/index.html', '/assets/../index.html', '/assets/.hidden', '/assets/link-AB12CD34.js', '/assets/missing.js', '/assets/', '/shell/status', '/robots.txt']) {
      assert.is(readStatic(web, p).kind, 'none', p);
    }
  } finally {
    dirs.cleanup();
  }
});

test('the CSP lists the backend and the daemon origin once each; the opener per system', () => {
  assert.is(
    contentSecurityPolicy(['http://127.0.0.1:8742', 'http://127.0.0.1:8742']),
    "default-src 'none'; script-src 'self'; connect-src 'self' http://127.0.0.1:8742; worker-src 'self'; img-src 'self' data: blob:; style-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  assert.equal(browserCommand('linux', 'http://x/#launch=a'), { file: 'xdg-open', args: ['http://x/#launch=a'] });
  assert.equal(browserCommand('darwin', 'http://x/'), { file: 'open', args: ['http://x/'] });
  assert.equal(browserCommand('win32', 'http://x/'), { file: 'cmd', args: ['/c', 'start', '""', 'http://x/'] });
});

test('the idle rule: quiet for the idle time and nothing running; a heartbeat restarts the wait; a request in flight holds it; a gone shell stops it at once', async () => {
  const t = await startTestServer({ role: 'fallback' });
  try {
    let now = 0;
    const stops: string[] = [];
    const deps = { ctx: t.ctx, runtime: t.server.runtime };
    const watch = watchFallbackIdle(deps, 600, (why) => stops.push(why), () => now);
    now = 500;
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(stops, []);
    assert.is((await t.request('POST', '/api/renderer/heartbeat')).status, 200);
    now = 700; // 700 since the start, but only a moment since the heartbeat
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(stops, []);
    now = 1400;
    t.server.runtime.requestsInFlight++;
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(stops, [], 'a request being answered holds it');
    t.server.runtime.requestsInFlight--;
    await waitFor(() => stops.length > 0, 2000, 'the idle stop');
    assert.equal(stops, ['no window heartbeat for 1 s and nothing runs']);

    const gone: string[] = [];
    const second = watchFallbackIdle(deps, 600_000, (why) => gone.push(why), () => 0);
    second.shellGone();
    assert.equal(gone, ['its window shell is gone and nothing runs']);
    watch.cancel();
  } finally {
    await t.close();
  }
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import yauzl from 'yauzl';
import { buildAnswerZip, answerMarkdown, ZIP_LIMITS } from '../src/answers/export-zip.js';
import { buildAnswerHtml, renderAnswerHtml, CSS, HTML_LIMITS } from '../src/answers/export-html.js';
import { SvcError } from '../src/errors.js';
import { canonicalJson, sha256Hex } from '../src/answers/canonical-json.js';
import { EVIL, S1, failed, succeeded } from './_answers-export.js';

function unzip(bytes: Buffer): Promise<{ name: string; text: string; compression: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: { name: string; text: string; compression: number }[] = [];
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('end', () => {
            out.push({ name: entry.fileName, text: Buffer.concat(chunks).toString('utf8'), compression: entry.compressionMethod });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

async function refusedAsync(fn: () => Promise<unknown> | unknown, reason: string, status: number) {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof SvcError);
    assert.is(err.status, status);
    assert.is(err.reason, reason);
    return;
  }
  assert.unreachable('expected a refusal');
}

test('ZIP holds exactly answer.json, answer.md, evidence.json in order', async () => {
  const entries = await unzip(await buildAnswerZip(succeeded()));
  assert.equal(entries.map((e) => e.name), ['answer.json', 'answer.md', 'evidence.json']);
  const answer = JSON.parse(entries[0].text);
  assert.is(answer.validation, 'validated');
  assert.is(answer.answer.state, 'succeeded');
  assert.is(answer.answer.output.result.sections.length, 2);
  assert.is(answer.answer.request, undefined);
  const evidence = JSON.parse(entries[2].text);
  assert.is(evidence.request.sources[0].text, S1);
  assert.is(evidence.request.notes[0].note_id, 7);
  // The saved request hashes to request_sha256: evidence.json is checkable.
  assert.is(sha256Hex(canonicalJson(evidence.request)), succeeded().request_sha256);
  assert.is(evidence.request_sha256, succeeded().request_sha256);
  for (const e of entries) assert.is(e.compression, 0);
});

test('identical snapshots give identical ZIP bytes, in any time zone; a changed snapshot does not', async () => {
  const a = await buildAnswerZip(succeeded());
  await new Promise((r) => setTimeout(r, 1100));
  const b = await buildAnswerZip(succeeded());
  assert.ok(a.equals(b));
  const c = await buildAnswerZip(succeeded({ finished_at_utc: '2025-01-02T03:05:01Z' }));
  assert.not.ok(a.equals(c));
  // The HTML format does not touch the ZIP.
  buildAnswerHtml(succeeded());
  assert.ok(a.equals(await buildAnswerZip(succeeded())));
});

test('Markdown fences every literal text, longer than any backtick run inside', () => {
  const md = answerMarkdown(succeeded({}, { instruction: 'a ```` b' }));
  assert.ok(md.includes('`````text\na ```` b\n`````'));
  // The planted HTML never appears outside a fence.
  const outside = md.replace(/(`{3,})text\n[\s\S]*?\n\1/g, '');
  assert.not.ok(outside.includes('<script>'), outside);
  assert.not.ok(outside.includes('**bold**'));
  assert.ok(md.includes('codepoints ['));
});

test('failed and partial answers are marked unvalidated and carry no result', async () => {
  const interrupted = succeeded({ state: 'interrupted', output: null, partial_text: '{"partial' });
  const running = succeeded({ state: 'running', output: null, partial_text: '' });
  for (const snap of [failed(), interrupted, running]) {
    const entries = await unzip(await buildAnswerZip(snap));
    const answer = JSON.parse(entries[0].text);
    assert.is(answer.validation, 'unvalidated');
    assert.ok(entries[1].text.includes('**UNVALIDATED**'));
    const html = renderAnswerHtml(snap);
    assert.ok(html.includes('UNVALIDATED'));
    assert.not.ok(html.includes('id="citations"'));
  }
  // A state other than succeeded is unvalidated even if a result object is present.
  const odd = await unzip(await buildAnswerZip(succeeded({ state: 'cancelled' })));
  assert.is(JSON.parse(odd[0].text).validation, 'unvalidated');
  assert.ok(odd[1].text.includes('**UNVALIDATED**'));
  assert.ok(renderAnswerHtml(interrupted).includes('{&quot;partial'));
  assert.ok(renderAnswerHtml(running).includes('No model output was saved.'));
});

test('a ZIP member over 1 MiB is 413 export_limit', async () => {
  const big = 'x'.repeat(ZIP_LIMITS.memberBytes);
  await refusedAsync(() => buildAnswerZip(succeeded({}, { instruction: big })), 'export_limit', 413);
  await refusedAsync(() => buildAnswerZip(failed(big)), 'export_limit', 413);
  // Just under the limit in each member is fine, and the total stays under 4 MiB.
  const ok = await buildAnswerZip(succeeded({}, { instruction: 'y'.repeat(ZIP_LIMITS.memberBytes / 2 - 10_000) }));
  assert.ok(ok.length < ZIP_LIMITS.totalBytes);
});

test('HTML headers: attachment, type, no-store, nosniff, CSP, identities, length and SHA-256', () => {
  const s = succeeded();
  const { bytes, headers } = buildAnswerHtml(s);
  assert.is(headers['content-type'], 'text/html; charset=utf-8');
  assert.is(headers['content-disposition'], 'attachment; filename="selected-answer.html"');
  assert.is(headers['cache-control'], 'no-store');
  assert.is(headers['x-content-type-options'], 'nosniff');
  assert.is(headers['x-svc-evidence-contract'], 'selected-answer-html/v1');
  assert.is(headers['x-svc-vault'], s.vault_id);
  assert.is(headers['x-svc-project'], s.project_id);
  assert.is(headers['x-svc-bundle'], s.answer_id);
  assert.is(headers['x-svc-version'], s.request_sha256);
  assert.is(headers['content-length'], String(bytes.length));
  assert.is(headers['x-svc-sha256'], crypto.createHash('sha256').update(bytes).digest('hex'));
  const csp = headers['content-security-policy'];
  for (const d of ['default-src', 'script-src', 'img-src', 'font-src', 'connect-src', 'media-src', 'object-src', 'frame-src', 'child-src', 'worker-src', 'manifest-src', 'base-uri', 'form-action']) {
    assert.ok(csp.includes(`${d} 'none'`), d);
  }
  const hash = crypto.createHash('sha256').update(CSS).digest('base64');
  assert.ok(csp.includes(`style-src 'sha256-${hash}'`));
  assert.not.ok(csp.includes('unsafe'));
  assert.ok(Buffer.byteLength(CSS) <= HTML_LIMITS.cssBytes);
  // The CSS in the document is byte for byte the hashed CSS.
  assert.ok(bytes.toString('utf8').includes(`<style>${CSS}</style>`));
});

test('HTML escapes every untrusted value: no script, form, active resource or link to elsewhere', () => {
  const html = renderAnswerHtml(succeeded());
  const failedHtml = renderAnswerHtml(failed());
  for (const doc of [html, failedHtml]) {
    assert.not.ok(/<script/i.test(doc));
    assert.not.ok(/<img|<iframe|<object|<embed|<form|<link|<input|<button|<svg|<math/i.test(doc));
    assert.not.ok(/<[^>]*\son[a-z]+=/i.test(doc), 'no event handler attribute in any tag');
    // Only our own tags exist: every '<' starts one of the authored elements.
    const tags = new Set([...doc.matchAll(/<\/?([a-zA-Z!][a-zA-Z0-9]*)/g)].map((m) => m[1].toLowerCase()));
    for (const t of tags) assert.ok(['!doctype', 'html', 'head', 'meta', 'title', 'style', 'body', 'header', 'h1', 'h2', 'h3', 'p', 'dl', 'dt', 'dd', 'pre', 'main', 'section', 'article', 'a', 'div', 'blockquote', 'ul', 'li'].includes(t), t);
    // Every href is an in-document fragment.
    for (const m of doc.matchAll(/href="([^"]*)"/g)) assert.match(m[1], /^#[A-Za-z0-9-]+$/);
    assert.ok(doc.includes('&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;'));
    assert.ok(doc.includes('**bold**'), 'Markdown stays literal');
    assert.not.ok(doc.includes('<strong>'));
  }
});

test('each citation links to its quote and the quote to its position in the saved source', () => {
  const s = succeeded();
  const html = renderAnswerHtml(s);
  assert.ok(html.includes('<a class="cite" href="#cite-1">[1] S01</a>'));
  assert.ok(html.includes('<a class="cite" href="#cite-2">[2] S01</a>'));
  assert.ok(html.includes('id="cite-1"'));
  assert.ok(html.includes('<a href="#pos-1">S01 ['));
  // The position anchor sits just before the quoted text in the source.
  assert.ok(html.includes('<a class="pos" id="pos-1" href="#cite-1"></a>heated to 300 K'));
  assert.ok(html.includes('id="source-S01"'));
});

test('a citation of a passage names its place on the page too, as `svc evidence read` numbers it, not only within the passage', () => {
  // S01 as a passage that starts 100 codepoints into page 4: [a, b) of it is page codepoints [100 + a, 100 + b).
  const base = succeeded();
  const passage = { ...base.request.sources[0]!, segment: 'passage' as const, page: 4, page_count: 9, start_codepoint: 100, end_codepoint: 100 + [...S1].length };
  const s = { ...base, request: { ...base.request, sources: [passage] } };
  const c = s.output!.validated ? s.output!.result.sections[0]!.items[0]! : null;
  const { start, end } = (c as any).citations[0];
  const place = `S01 [${start}, ${end}) = page 4 codepoints [${100 + start}, ${100 + end})`;
  assert.ok(answerMarkdown(s).includes(`Citation ${place}:`), answerMarkdown(s));
  assert.ok(renderAnswerHtml(s).includes(`<a href="#pos-1">${place}</a>`));
});

test('HTML over 4,194,304 bytes is 413 export_limit before anything is built into a download', async () => {
  const big = 'é'.repeat(HTML_LIMITS.documentBytes / 2);
  await refusedAsync(() => buildAnswerHtml(succeeded({}, { instruction: big })), 'export_limit', 413);
  // Escaping counts: 1,100,000 '<' become 4,400,000 bytes of '&lt;'.
  await refusedAsync(() => buildAnswerHtml(failed('<'.repeat(1_100_000))), 'export_limit', 413);
  assert.ok(buildAnswerHtml(succeeded({}, { instruction: 'x'.repeat(3_000_000) })).bytes.length <= HTML_LIMITS.documentBytes);
});

test.run();

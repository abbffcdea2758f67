/**
 * The PDF child: a long-lived process that parses one requested page of
 * verified bytes at a time with pdfjs-dist, strictly (stopAtErrors, any
 * parser warning refuses), refusing encryption (empty password included), and
 * answers the page's plain text under the contract of pdf-protocol.ts. It
 * keeps the last documents it parsed, by their verified SHA-256, so the next
 * page of the same file is read without its bytes being sent again. It has
 * no credentials, no stdout and, where Node's permission model is on, no
 * write, spawn or worker access. The parent bounds its time and output.
 */
import type { ChildAnswer, ChildLimits, ChildMessage, ChildRequest } from './pdf-protocol.js';
import { pageTreeVerdict } from './pdf-tree.js';

const [pdfjsPath, fontsDir] = process.argv.slice(2) as [string, string];

// Text-only use needs no canvas: these stand in for what pdfjs looks for at load.
const g = globalThis as Record<string, unknown>;
g.DOMMatrix ??= class DOMMatrix {
  a = 1; b = 0; c = 0; d = 1; e = 0; f = 0;
};
g.ImageData ??= class ImageData {};
g.Path2D ??= class Path2D {};

// pdfjs reports warnings on the console; collect them: any warning refuses the page.
let warnings: string[] = [];
const collect = (...args: unknown[]) => void warnings.push(args.map(String).join(' ').slice(0, 300));
console.log = collect;
console.warn = collect;
console.info = collect;
console.error = collect;

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

function send(message: ChildMessage): void {
  process.send?.(message);
}

function plainText(items: unknown[]): string {
  let out = '';
  for (const item of items) {
    const it = item as { str?: unknown; hasEOL?: unknown };
    if (typeof it.str !== 'string') continue;
    out += it.str;
    if (it.hasEOL === true) out += '\n';
  }
  return out.replace(/\r\n?/g, '\n').replace(/\u0000|\p{Cs}/gu, '\uFFFD');
}

function countCodepoints(text: string, stopAt: number): number {
  let n = 0;
  for (const _ of text) if (++n > stopAt) break;
  return n;
}

type Doc = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
type Answer = Omit<ChildAnswer, 'id'>;

/** A parsed document that passed the document-wide checks, kept for its next pages. */
interface Held {
  doc: Doc;
  pageCount: number;
}

/**
 * Parsing is what a page read costs (seconds for a large file), so the last
 * documents stay parsed, keyed by their verified SHA-256: a page turn reads
 * one page of a document already here. Two at most (each at most the reader's
 * 16 MiB), the least recently read dropped first; a document whose page is
 * refused is dropped at once, and the parent replaces this child anyway.
 */
const HELD_DOCUMENTS = 2;
const held = new Map<string, Held>();

function answer(status: ChildAnswer['status'], reason: string | null, message: string | null, extra: Partial<Answer> = {}): Answer {
  return { status, reason, message, page_count: null, examined: false, text: null, reused: false, ...extra };
}

const clean = (a: Answer) => a.status === 'extracted' || a.status === 'no_text' || a.status === 'out_of_range';

function refusedBy(err: unknown, extra: Partial<Answer>): Answer {
  const name = (err as Error | undefined)?.name ?? '';
  if (name === 'PasswordException') return answer('unsupported', 'encrypted', 'The PDF is encrypted; it is not read.', extra);
  const detail = String((err as Error | undefined)?.message ?? err).slice(0, 300);
  return answer('malformed', 'parse_error', `${name || 'Error'}: ${detail}`, extra);
}

/** Parse the bytes and run the document-wide checks: the document to hold, or the refusal. */
async function openDocument(pdfjs: Pdfjs, data: Uint8Array, limits: ChildLimits): Promise<{ held: Held } | { refused: Answer }> {
  let doc: Doc | undefined;
  let pageCount: number | null = null;
  // Destroyed before answering, so nothing it says lands among the next request's warnings.
  const refused = async (a: Answer) => {
    await doc?.destroy().catch(() => {});
    return { refused: a };
  };
  try {
    const task = pdfjs.getDocument({
      data, stopAtErrors: true, isEvalSupported: false, disableFontFace: true, useSystemFonts: false,
      verbosity: pdfjs.VerbosityLevel.WARNINGS, standardFontDataUrl: fontsDir, enableXfa: false,
    });
    doc = await task.promise;
    const { info } = (await doc.getMetadata()) as unknown as { info: Record<string, unknown> };
    if (info.EncryptFilterName) return refused(answer('unsupported', 'encrypted', 'The PDF is encrypted (even with an empty password); it is not read.'));
    pageCount = doc.numPages;
    // A file pdfjs had to repair is refused before its page tree is measured.
    if (warnings.length > 0) return refused(answer('malformed', 'parser_warning', warnings[0]!, { page_count: pageCount }));
    const tree = pageTreeVerdict(data, limits.treeNodes, limits.treeDepth);
    if (!tree.ok) return refused(answer(tree.reason === 'page_tree_unreadable' ? 'unsupported' : 'limit_exceeded', tree.reason, tree.message, { page_count: pageCount }));
    if (pageCount > limits.pages) return refused(answer('limit_exceeded', 'pdf_pages', `The PDF has more than ${limits.pages} pages.`, { page_count: pageCount }));
    return { held: { doc, pageCount } };
  } catch (err) {
    return refused(refusedBy(err, { page_count: pageCount }));
  }
}

/** One page of a held document, under the page limits; any parser warning refuses it. */
async function readPage(pdfjs: Pdfjs, h: Held, pageNumber: number, limits: ChildLimits): Promise<Answer> {
  const known = { page_count: h.pageCount };
  if (pageNumber > h.pageCount) return answer('out_of_range', 'page_out_of_range', null, known);
  const examined = { ...known, examined: true };
  let page: Awaited<ReturnType<Doc['getPage']>> | undefined;
  try {
    page = await h.doc.getPage(pageNumber);
    const ops = await page.getOperatorList({ intent: 'print', annotationMode: pdfjs.AnnotationMode.DISABLE });
    let forms = 0;
    for (const fn of ops.fnArray) if (fn === pdfjs.OPS.paintFormXObjectBegin) forms++;
    if (forms > limits.forms) return answer('limit_exceeded', 'form_invocations', `The page invokes more than ${limits.forms} forms.`, examined);
    const content = await page.getTextContent();
    if (warnings.length > 0) return answer('malformed', 'parser_warning', warnings[0]!, examined);
    const text = plainText(content.items);
    if (countCodepoints(text, limits.codepoints) > limits.codepoints) {
      return answer('limit_exceeded', 'page_codepoints', `The page text has more than ${limits.codepoints} codepoints.`, examined);
    }
    return answer(text.trim() === '' ? 'no_text' : 'extracted', null, null, { ...examined, text });
  } catch (err) {
    return refusedBy(err, examined);
  } finally {
    // The page's operator list and fonts are not kept between reads: a held document stays small.
    page?.cleanup();
  }
}

async function hold(sha256: string, h: Held): Promise<void> {
  held.set(sha256, h);
  for (const [key, old] of held) {
    if (held.size <= HELD_DOCUMENTS) break;
    held.delete(key);
    await old.doc.destroy().catch(() => {});
  }
}

async function drop(sha256: string): Promise<void> {
  const h = held.get(sha256);
  held.delete(sha256);
  await h?.doc.destroy().catch(() => {});
}

/** One request: a page of a held document, `need_bytes` when the document is not here and no bytes came, or a page of the bytes sent. */
async function serve(pdfjs: Pdfjs, req: ChildRequest): Promise<Answer | 'need_bytes'> {
  warnings = [];
  let h = held.get(req.sha256);
  const reused = h !== undefined;
  if (h) {
    held.delete(req.sha256);
    held.set(req.sha256, h); // most recently read last
  } else {
    if (!req.data) return 'need_bytes';
    const data = req.data instanceof Uint8Array ? req.data : new Uint8Array(req.data as ArrayLike<number>);
    const opened = await openDocument(pdfjs, data, req.limits);
    if ('refused' in opened) return opened.refused;
    h = opened.held;
    await hold(req.sha256, h);
  }
  const result = { ...(await readPage(pdfjs, h, req.page, req.limits)), reused };
  if (!clean(result)) await drop(req.sha256);
  return result;
}

/** A one-page PDF read once at start, so the first real page does not pay pdfjs's own warm-up. */
function warmupPdf(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Length 33 >>\nstream\nBT /F1 12 Tf 10 10 Td (warm) Tj ET\nendstream',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

async function main(): Promise<void> {
  const pdfjs = (await import(pdfjsPath)) as Pdfjs;
  const warmLimits = { pages: 1, codepoints: 100, forms: 1, treeNodes: 10, treeDepth: 4 };
  const warm = await openDocument(pdfjs, warmupPdf(), warmLimits);
  if ('held' in warm) {
    await readPage(pdfjs, warm.held, 1, warmLimits);
    await warm.held.doc.destroy().catch(() => {});
  }
  send({ kind: 'ready', version: pdfjs.version });
  let chain = Promise.resolve();
  process.on('message', (req: ChildRequest) => {
    chain = chain.then(async () => {
      const result = await serve(pdfjs, req);
      if (result === 'need_bytes') return send({ kind: 'need_bytes', id: req.id });
      send({ kind: 'answer', id: req.id, json: JSON.stringify({ id: req.id, ...result }) });
    });
  });
  process.on('disconnect', () => process.exit(0));
}

void main();

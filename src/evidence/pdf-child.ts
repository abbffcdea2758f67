/**
 * The PDF child: a long-lived process that parses one requested page of
 * verified bytes at a time with pdfjs-dist, strictly (stopAtErrors, any
 * parser warning refuses), refusing encryption (empty password included), and
 * answers the page's plain text under the contract of pdf-protocol.ts. It has
 * no credentials, no stdout and, where Node's permission model is on, no
 * write, spawn or worker access. The parent bounds its time and output.
 */
import type { ChildAnswer, ChildMessage, ChildRequest } from './pdf-protocol.js';
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

async function extract(pdfjs: Pdfjs, req: ChildRequest): Promise<Omit<ChildAnswer, 'id'>> {
  const answer = (status: ChildAnswer['status'], reason: string | null, message: string | null, extra: Partial<ChildAnswer> = {}) => ({
    status, reason, message, page_count: null, examined: false, text: null, ...extra,
  });
  warnings = [];
  let doc: Awaited<ReturnType<Pdfjs['getDocument']>['promise']> | undefined;
  let pageCount: number | null = null;
  let examined = false;
  try {
    const task = pdfjs.getDocument({
      data: req.data, stopAtErrors: true, isEvalSupported: false, disableFontFace: true, useSystemFonts: false,
      verbosity: pdfjs.VerbosityLevel.WARNINGS, standardFontDataUrl: fontsDir, enableXfa: false,
    });
    doc = await task.promise;
    const { info } = (await doc.getMetadata()) as unknown as { info: Record<string, unknown> };
    if (info.EncryptFilterName) return answer('unsupported', 'encrypted', 'The PDF is encrypted (even with an empty password); it is not read.');
    pageCount = doc.numPages;
    // A file pdfjs had to repair is refused before its page tree is measured.
    if (warnings.length > 0) return answer('malformed', 'parser_warning', warnings[0]!, { page_count: pageCount });
    const tree = pageTreeVerdict(req.data, req.limits.treeNodes, req.limits.treeDepth);
    if (!tree.ok) return answer(tree.reason === 'page_tree_unreadable' ? 'unsupported' : 'limit_exceeded', tree.reason, tree.message, { page_count: pageCount });
    if (pageCount > req.limits.pages) return answer('limit_exceeded', 'pdf_pages', `The PDF has more than ${req.limits.pages} pages.`, { page_count: pageCount });
    if (req.page > pageCount) return answer('out_of_range', 'page_out_of_range', null, { page_count: pageCount });
    examined = true;
    const page = await doc.getPage(req.page);
    const ops = await page.getOperatorList({ intent: 'print', annotationMode: pdfjs.AnnotationMode.DISABLE });
    let forms = 0;
    for (const fn of ops.fnArray) if (fn === pdfjs.OPS.paintFormXObjectBegin) forms++;
    if (forms > req.limits.forms) return answer('limit_exceeded', 'form_invocations', `The page invokes more than ${req.limits.forms} forms.`, { page_count: pageCount, examined });
    const content = await page.getTextContent();
    if (warnings.length > 0) return answer('malformed', 'parser_warning', warnings[0]!, { page_count: pageCount, examined });
    const text = plainText(content.items);
    if (countCodepoints(text, req.limits.codepoints) > req.limits.codepoints) {
      return answer('limit_exceeded', 'page_codepoints', `The page text has more than ${req.limits.codepoints} codepoints.`, { page_count: pageCount, examined });
    }
    return answer(text.trim() === '' ? 'no_text' : 'extracted', null, null, { page_count: pageCount, examined, text });
  } catch (err) {
    const name = (err as Error | undefined)?.name ?? '';
    if (name === 'PasswordException') return answer('unsupported', 'encrypted', 'The PDF is encrypted; it is not read.', { page_count: pageCount });
    const detail = String((err as Error | undefined)?.message ?? err).slice(0, 300);
    return answer('malformed', 'parse_error', `${name || 'Error'}: ${detail}`, { page_count: pageCount, examined });
  } finally {
    await doc?.destroy().catch(() => {});
  }
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
  await extract(pdfjs, { id: 0, data: warmupPdf(), page: 1, limits: { pages: 1, codepoints: 100, forms: 1, treeNodes: 10, treeDepth: 4 } });
  send({ kind: 'ready', version: pdfjs.version });
  let chain = Promise.resolve();
  process.on('message', (req: ChildRequest) => {
    chain = chain.then(async () => {
      const data = req.data instanceof Uint8Array ? req.data : new Uint8Array(req.data as ArrayLike<number>);
      const result = await extract(pdfjs, { ...req, data });
      send({ kind: 'answer', id: req.id, json: JSON.stringify({ id: req.id, ...result }) });
    });
  });
  process.on('disconnect', () => process.exit(0));
}

void main();

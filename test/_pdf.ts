/**
 * A small PDF writer for tests and benchmarks: real, valid PDF files with
 * text pages (Helvetica), image-only pages, raw content streams (optionally
 * Flate-compressed), and the standard RC4 encryption with an empty user
 * password. The cross-reference table is computed, so pdfjs reads them
 * without repairs (which would be parser warnings).
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';

export type PdfPage = string | { lines: string[] } | { raw: string; deflate?: boolean } | { image: true };

const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

function contentOf(page: PdfPage): { stream: Buffer; image: boolean; deflate: boolean } {
  if (typeof page === 'string') return contentOf({ lines: [page] });
  if ('lines' in page) {
    const ops = page.lines.map((l, i) => `BT /F1 12 Tf 72 ${720 - 16 * i} Td (${escape(l)}) Tj ET`).join('\n');
    return { stream: Buffer.from(ops, 'latin1'), image: false, deflate: false };
  }
  if ('image' in page) return { stream: Buffer.from('q 200 0 0 200 72 400 cm /Im1 Do Q', 'latin1'), image: true, deflate: false };
  const raw = Buffer.from(page.raw, 'latin1');
  return page.deflate ? { stream: zlib.deflateSync(raw), image: false, deflate: true } : { stream: raw, image: false, deflate: false };
}

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();

/** The Standard security handler, revision 2, 40-bit RC4, empty user password. */
function encryption(id: Buffer, ownerPassword: string) {
  const o = rc4(md5(Buffer.concat([Buffer.from(ownerPassword, 'latin1'), PAD]).subarray(0, 32)).subarray(0, 5), PAD);
  const p = Buffer.alloc(4);
  p.writeInt32LE(-4);
  const key = md5(PAD, o, p, id).subarray(0, 5);
  const u = rc4(key, PAD);
  return `<< /Filter /Standard /V 1 /R 2 /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P -4 >>`;
}

export function makePdf(pages: PdfPage[], options: { encrypt?: boolean } = {}): Buffer {
  const objects: (Buffer | string)[] = [];
  const add = (o: Buffer | string) => objects.push(o);
  add('<< /Type /Catalog /Pages 2 0 R >>'); // 1
  add(''); // 2: pages, filled below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'); // 3
  add(Buffer.concat([Buffer.from('<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n', 'latin1'), Buffer.from([0, 255, 255, 0]), Buffer.from('\nendstream', 'latin1')])); // 4
  const kids: number[] = [];
  for (const page of pages) {
    const c = contentOf(page);
    const filter = c.deflate ? ' /Filter /FlateDecode' : '';
    add(Buffer.concat([Buffer.from(`<< /Length ${c.stream.length}${filter} >>\nstream\n`, 'latin1'), c.stream, Buffer.from('\nendstream', 'latin1')]));
    const contentId = objects.length;
    const xobject = c.image ? ' /XObject << /Im1 4 0 R >>' : '';
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >>${xobject} >> /Contents ${contentId} 0 R >>`);
    kids.push(objects.length);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const id = crypto.createHash('md5').update(`svc-test-${pages.length}`).digest();
  let encryptRef = '';
  if (options.encrypt) {
    add(encryption(id, 'owner'));
    encryptRef = ` /Encrypt ${objects.length} 0 R`;
  }
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let size = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(size);
    const body = typeof o === 'string' ? Buffer.from(o, 'latin1') : o;
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    chunks.push(chunk);
    size += chunk.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]${encryptRef} >>\nstartxref\n${size}\n%%EOF\n`;
  chunks.push(Buffer.from(xref + trailer, 'latin1'));
  return Buffer.concat(chunks);
}

/** A page whose content stream takes the parser a long time: many path operators, compressed. */
export function slowPage(operators = 400_000): PdfPage {
  return { raw: '0 0 m 1 1 l S\n'.repeat(operators), deflate: true };
}

/**
 * A PDF of exactly these objects (numbered from 1; object 1 is the catalog),
 * with a computed cross-reference table: for page trees of any shape.
 */
export function pdfFromObjects(objects: string[]): Buffer {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * The same objects, but every dictionary that is not a stream packed into one
 * Flate object stream and the cross-reference written as a stream with a PNG
 * Up predictor (how most PDF writers save today). `streamInItself` makes the
 * object stream's own cross-reference entry point into that same stream.
 */
export function compressedPdfFromObjects(objects: string[], options: { hexObjectStream?: boolean; streamInItself?: boolean } = {}): Buffer {
  const packed = objects.map((o, i) => ({ num: i + 1, body: o })).filter((o) => !o.body.includes('stream'));
  const plain = objects.map((o, i) => ({ num: i + 1, body: o })).filter((o) => o.body.includes('stream'));
  const stmNum = objects.length + 1;
  const xrefNum = objects.length + 2;
  let header = '';
  let bodies = '';
  for (const o of packed) {
    header += `${o.num} ${bodies.length} `;
    bodies += `${o.body}\n`;
  }
  const packedBytes = Buffer.from(header + bodies, 'latin1');
  const objstm = options.hexObjectStream ? Buffer.from(`${packedBytes.toString('hex')}>`, 'latin1') : zlib.deflateSync(packedBytes);
  const objFilter = options.hexObjectStream ? '/ASCIIHexDecode' : '/FlateDecode';
  const chunks: Buffer[] = [Buffer.from('%PDF-1.5\n', 'latin1')];
  let size = chunks[0]!.length;
  const entries = new Map<number, [number, number, number]>();
  const put = (num: number, body: Buffer) => {
    entries.set(num, [1, size, 0]);
    const chunk = Buffer.concat([Buffer.from(`${num} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    chunks.push(chunk);
    size += chunk.length;
  };
  for (const o of plain) put(o.num, Buffer.from(o.body, 'latin1'));
  put(stmNum, Buffer.concat([Buffer.from(`<< /Type /ObjStm /N ${packed.length} /First ${header.length} /Length ${objstm.length} /Filter ${objFilter} >>\nstream\n`, 'latin1'), objstm, Buffer.from('\nendstream', 'latin1')]));
  packed.forEach((o, i) => entries.set(o.num, [2, stmNum, i]));
  // A booby trap: the object stream's own entry says it is stored inside itself.
  if (options.streamInItself) entries.set(stmNum, [2, stmNum, 0]);
  const xrefOffset = size;
  entries.set(xrefNum, [1, xrefOffset, 0]);
  // Rows of W [1 4 2], each after a PNG Up filter byte.
  const rows: Buffer[] = [];
  let previous = Buffer.alloc(7);
  for (let num = 0; num <= xrefNum; num++) {
    const [type, a, b] = entries.get(num) ?? [0, 0, 65535];
    const row = Buffer.alloc(7);
    row.writeUInt8(type, 0);
    row.writeUInt32BE(a, 1);
    row.writeUInt16BE(b, 5);
    const up = Buffer.from(row.map((byte, i) => (byte - previous[i]!) & 255));
    rows.push(Buffer.concat([Buffer.from([2]), up]));
    previous = row;
  }
  const data = zlib.deflateSync(Buffer.concat(rows));
  const dict = `<< /Type /XRef /Size ${xrefNum + 1} /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /DecodeParms << /Columns 7 /Predictor 12 >> /Length ${data.length} >>`;
  chunks.push(Buffer.concat([Buffer.from(`${xrefNum} 0 obj\n${dict}\nstream\n`, 'latin1'), data, Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`, 'latin1')]));
  return Buffer.concat(chunks);
}

const TREE_FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

/**
 * A one-page PDF whose page sits `levels` deep (the root Pages node is level 1,
 * the page itself the last level), under a chain of Pages nodes.
 */
export function deepTreeObjects(levels: number, text = 'deep page'): string[] {
  const content = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  // 1 catalog, 2 font, 3 content, 4.. the Pages chain, then the page.
  const objects = ['<< /Type /Catalog /Pages 4 0 R >>', TREE_FONT, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`];
  const first = 4;
  for (let level = 1; level < levels; level++) {
    const num = first + level - 1;
    const parent = level === 1 ? '' : ` /Parent ${num - 1} 0 R`;
    objects.push(`<< /Type /Pages /Kids [${num + 1} 0 R] /Count 1${parent} >>`);
  }
  const pageNum = first + levels - 1;
  objects.push(`<< /Type /Page /Parent ${pageNum - 1} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 2 0 R >> >> /Contents 3 0 R >>`);
  return objects;
}

/** A one-page PDF whose root Pages node also holds `empty` empty Pages nodes: 2 + empty nodes in all. */
export function wideTreeObjects(empty: number, text = 'wide page'): string[] {
  const content = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  // 1 catalog, 2 font, 3 content, 4 root Pages, 5 the page, 6.. the empty nodes.
  const kids = ['5 0 R', ...Array.from({ length: empty }, (_, i) => `${6 + i} 0 R`)];
  return [
    '<< /Type /Catalog /Pages 4 0 R >>',
    TREE_FONT,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /Pages /Kids [${kids.join(' ')}] /Count 1 >>`,
    '<< /Type /Page /Parent 4 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 2 0 R >> >> /Contents 3 0 R >>',
    ...Array.from({ length: empty }, () => '<< /Type /Pages /Parent 4 0 R /Kids [] /Count 0 >>'),
  ];
}

/** What the PDF pool reads a page of: bytes in memory under their SHA-256 (the service's come from a verified file). */
export function pdfSource(bytes: Uint8Array): { sha256: string; bytes: () => Promise<Uint8Array> } {
  return { sha256: crypto.createHash('sha256').update(bytes).digest('hex'), bytes: async () => new Uint8Array(bytes) };
}

/**
 * The reader benchmarks' PDF (issue 35 item 7): each page 40 lines of text in
 * Helvetica and one incompressible 8-bit grey image of 280×280 (78,400 bytes),
 * so 200 pages come to just under 16 MiB and a renderer has real drawing to do.
 */
export function readerBenchPdf(pages: number): Buffer {
  const side = 280;
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'];
  const kids: number[] = [];
  for (let p = 1; p <= pages; p++) {
    const lines = Array.from({ length: 40 }, (_, i) => `Page ${p}, line ${i + 1}: measured samples agree within the stated error of the method.`);
    const content = `q 200 0 0 200 350 560 cm /Im1 Do Q\n${lines.map((l, i) => `BT /F1 9 Tf 54 ${740 - 17 * i} Td (${l}) Tj ET`).join('\n')}`;
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    const contentId = objects.length;
    const pixels = crypto.randomBytes(side * side).toString('latin1');
    objects.push(`<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n${pixels}\nendstream`);
    const imageId = objects.length;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 ${imageId} 0 R >> >> /Contents ${contentId} 0 R >>`);
    kids.push(objects.length);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  return pdfFromObjects(objects);
}

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

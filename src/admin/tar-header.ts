/**
 * POSIX tar (ustar) headers for the backup bundle, computed up front so that
 * every file's place in the bundle is known before any byte is copied (the
 * copy threads then write each file straight to its offset). A name longer
 * than ustar's 100 + 155 bytes, or a size of 8 GiB or more, gets a pax
 * extended header first, as GNU tar and tar-stream write and read it.
 */
export const BLOCK = 512;
const MAX_OCTAL_SIZE = 0o77777777777;

export const padded = (n: number) => Math.ceil(n / BLOCK) * BLOCK;

function octal(buf: Buffer, value: number, offset: number, width: number): void {
  buf.write(value.toString(8).padStart(width - 1, '0') + '\0', offset, width, 'ascii');
}

/** Split a long name at a slash into ustar's prefix (155 bytes) and name (100 bytes); null when impossible. */
function split(name: string): { prefix: string; base: string } | null {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  for (let i = name.indexOf('/'); i > 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100 && base !== '') return { prefix, base };
  }
  return null;
}

function block(name: string, prefix: string, size: number, mode: number, mtime: number, type: '0' | 'x'): Buffer {
  const buf = Buffer.alloc(BLOCK);
  buf.write(name, 0, 100, 'utf8');
  octal(buf, mode & 0o7777, 100, 8);
  octal(buf, 0, 108, 8);
  octal(buf, 0, 116, 8);
  if (size <= MAX_OCTAL_SIZE) octal(buf, size, 124, 12);
  else {
    // base-256: high bit set, big-endian value in the rest of the field
    buf[124] = 0x80;
    let v = BigInt(size);
    for (let i = 135; i > 124; i--, v >>= 8n) buf[i] = Number(v & 0xffn);
  }
  octal(buf, Math.max(0, Math.floor(mtime)), 136, 12);
  buf.write(type, 156, 1, 'ascii');
  buf.write('ustar\u000000', 257, 8, 'ascii');
  buf.write(prefix, 345, 155, 'utf8');
  buf.fill(' ', 148, 156);
  let sum = 0;
  for (const b of buf) sum += b;
  buf.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return buf;
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len = String(len).length + Buffer.byteLength(body);
  return `${len}${body}`;
}

/** The bytes before a regular file's data: one ustar block, or a pax header, its records and the ustar block. */
export function fileHeader(name: string, size: number, mode: number, mtimeSeconds: number): Buffer {
  const parts = split(name);
  if (parts && size <= MAX_OCTAL_SIZE) return block(parts.base, parts.prefix, size, mode, mtimeSeconds, '0');
  let records = '';
  if (!parts) records += paxRecord('path', name);
  if (size > MAX_OCTAL_SIZE) records += paxRecord('size', String(size));
  const data = Buffer.from(records, 'utf8');
  const short = parts ?? { prefix: '', base: Buffer.from(name).subarray(0, 100).toString('utf8').replace(/\uFFFD+$/, '') };
  const body = Buffer.alloc(padded(data.length));
  data.copy(body);
  return Buffer.concat([block('PaxHeader', '', data.length, 0o644, mtimeSeconds, 'x'), body, block(short.base, short.prefix, size, mode, mtimeSeconds, '0')]);
}

/** Two zero blocks end a tar archive. */
export const END_OF_ARCHIVE = 2 * BLOCK;

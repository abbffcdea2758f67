/**
 * The size of a PDF's page tree (spec 2 "Reader": at most 2,000 nodes and
 * depth 32), measured from the bytes before pdfjs looks for a page: pdfjs
 * skips subtrees by their /Count and offers no way to count nodes. A small
 * reader resolves only the objects on the way: cross-reference tables and
 * streams (with /Prev and /XRefStm), object streams, Flate with PNG
 * predictors. Every node visit counts (a shared or circular kid again), so
 * the walk stops after at most `nodes` + 1 visits. Runs in the PDF child.
 */
import zlib from 'node:zlib';

export type TreeVerdict =
  | { ok: true; nodes: number; depth: number }
  | { ok: false; reason: 'page_tree_nodes' | 'page_tree_depth' | 'page_tree_unreadable'; message: string };

interface Ref {
  num: number;
  gen: number;
}
type Value = number | boolean | null | string | { name: string } | Ref | Value[] | Dict | Stream;
type Dict = Map<string, Value>;
interface Stream {
  dict: Dict;
  start: number;
}

class Unreadable extends Error {}
function fail(why: string): never {
  throw new Unreadable(why);
}

const WS = new Set([0, 9, 10, 12, 13, 32]);
const DELIM = new Set('()<>[]{}/%'.split('').map((c) => c.charCodeAt(0)));
const isRef = (v: Value | undefined): v is Ref => typeof v === 'object' && v !== null && 'num' in v && 'gen' in v;
const isDict = (v: Value | undefined): v is Dict => v instanceof Map;
const isNameValue = (v: Value | undefined): v is { name: string } => typeof v === 'object' && v !== null && 'name' in v;
const isName = (v: Value | undefined, name: string) => isNameValue(v) && v.name === name;
const isStream = (v: Value | undefined): v is Stream => typeof v === 'object' && v !== null && 'start' in v && 'dict' in v;

class Lexer {
  constructor(readonly buf: Buffer, public pos: number) {}

  skip(): void {
    const b = this.buf;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (WS.has(c)) this.pos++;
      else if (c === 0x25 /* % */) while (this.pos < b.length && b[this.pos] !== 10 && b[this.pos] !== 13) this.pos++;
      else break;
    }
  }

  /** A run of regular characters (a number or a keyword). */
  word(): string {
    this.skip();
    const start = this.pos;
    while (this.pos < this.buf.length && !WS.has(this.buf[this.pos]!) && !DELIM.has(this.buf[this.pos]!)) this.pos++;
    return this.buf.toString('latin1', start, this.pos);
  }

  value(depth = 0): Value {
    if (depth > 64) fail('objects nest too deeply');
    this.skip();
    const b = this.buf;
    const c = b[this.pos];
    if (c === undefined) fail('unexpected end of file');
    if (c === 0x3c /* < */ && b[this.pos + 1] === 0x3c) {
      this.pos += 2;
      const dict: Dict = new Map();
      for (;;) {
        this.skip();
        if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
          this.pos += 2;
          return dict;
        }
        const key = this.value(depth + 1);
        if (!isNameValue(key)) fail('a dictionary key is not a name');
        dict.set(key.name, this.value(depth + 1));
      }
    }
    if (c === 0x3c) {
      const end = b.indexOf(0x3e, this.pos);
      if (end < 0) fail('unterminated hex string');
      this.pos = end + 1;
      return '';
    }
    if (c === 0x5b /* [ */) {
      this.pos++;
      const items: Value[] = [];
      for (;;) {
        this.skip();
        if (b[this.pos] === 0x5d) {
          this.pos++;
          return items;
        }
        items.push(this.value(depth + 1));
      }
    }
    if (c === 0x28 /* ( */) {
      let level = 0;
      for (; this.pos < b.length; this.pos++) {
        const ch = b[this.pos];
        if (ch === 0x5c) this.pos++;
        else if (ch === 0x28) level++;
        else if (ch === 0x29 && --level === 0) {
          this.pos++;
          return '';
        }
      }
      fail('unterminated string');
    }
    if (c === 0x2f /* / */) {
      this.pos++;
      const raw = this.word();
      return { name: raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) };
    }
    const word = this.word();
    if (word === '') fail('unexpected delimiter');
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) fail(`unexpected keyword ${word.slice(0, 20)}`);
    const n = Number(word);
    if (/^\d+$/.test(word)) {
      // An integer may begin a reference: `num gen R`.
      const save = this.pos;
      const gen = this.word();
      if (/^\d+$/.test(gen) && this.word() === 'R') return { num: n, gen: Number(gen) };
      this.pos = save;
    }
    return n;
  }
}

type Entry = { type: 1; offset: number } | { type: 2; stream: number; index: number };

export class PdfObjects {
  private readonly entries = new Map<number, Entry>();
  private readonly cache = new Map<number, Value>();
  private readonly resolving = new Set<number>();
  private readonly objStreams = new Map<number, { data: Buffer; first: number; offsets: Map<number, number> }>();
  readonly trailer: Dict;

  constructor(private readonly buf: Buffer) {
    const at = buf.lastIndexOf('startxref');
    if (at < 0) fail('no startxref');
    const lexer = new Lexer(buf, at + 9);
    let offset: number | undefined = Number(lexer.word());
    let trailer: Dict | undefined;
    const seen = new Set<number>();
    while (offset !== undefined) {
      if (!Number.isInteger(offset) || offset < 0 || offset >= buf.length || seen.has(offset) || seen.size > 64) fail('bad cross-reference offset');
      seen.add(offset);
      const section = this.readSection(offset);
      trailer ??= section;
      const stm = section.get('XRefStm');
      if (typeof stm === 'number') this.readSection(stm);
      const prev = section.get('Prev');
      offset = typeof prev === 'number' ? prev : undefined;
    }
    this.trailer = trailer!;
  }

  /** One cross-reference section (a table or a stream); earlier-read (newer) entries win. */
  private readSection(offset: number): Dict {
    const lexer = new Lexer(this.buf, offset);
    const save = lexer.pos;
    if (lexer.word() === 'xref') {
      for (;;) {
        const first = lexer.word();
        if (first === 'trailer') break;
        const count = Number(lexer.word());
        if (!/^\d+$/.test(first) || !Number.isInteger(count)) fail('bad cross-reference table');
        for (let i = 0; i < count; i++) {
          const off = Number(lexer.word());
          lexer.word();
          const kind = lexer.word();
          const num = Number(first) + i;
          if (kind === 'n' && !this.entries.has(num)) this.entries.set(num, { type: 1, offset: off });
          else if (kind !== 'n' && kind !== 'f') fail('bad cross-reference entry');
        }
      }
      const trailer = lexer.value();
      return isDict(trailer) ? trailer : fail('the trailer is not a dictionary');
    }
    lexer.pos = save;
    const obj = this.objectAt(offset);
    if (!isStream(obj) || !isName(obj.dict.get('Type'), 'XRef')) fail('no cross-reference at startxref');
    const stream = obj;
    const data = this.streamData(stream);
    const w = stream.dict.get('W');
    const widths = Array.isArray(w) ? w.filter((x): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 8) : [];
    if (widths.length !== 3 || !Array.isArray(w) || w.length !== 3) fail('bad /W');
    const [w0, w1, w2] = widths as [number, number, number];
    const size = stream.dict.get('Size');
    const index = stream.dict.get('Index') ?? [0, typeof size === 'number' ? size : 0];
    const ranges = Array.isArray(index) ? index.filter((x): x is number => typeof x === 'number') : [];
    if (!Array.isArray(index) || ranges.length !== index.length) fail('bad /Index');
    const field = (pos: number, width: number) => {
      let n = 0;
      for (let i = 0; i < width; i++) n = n * 256 + data[pos + i]!;
      return n;
    };
    let pos = 0;
    const row = w0 + w1 + w2;
    for (let k = 0; k + 1 < ranges.length; k += 2) {
      const [start, count] = [ranges[k]!, ranges[k + 1]!];
      for (let i = 0; i < count && pos + row <= data.length; i++, pos += row) {
        const type = w0 === 0 ? 1 : field(pos, w0);
        const a = field(pos + w0, w1);
        const b = field(pos + w0 + w1, w2);
        if (this.entries.has(start + i)) continue;
        if (type === 1) this.entries.set(start + i, { type: 1, offset: a });
        else if (type === 2) this.entries.set(start + i, { type: 2, stream: a, index: b });
      }
    }
    return stream.dict;
  }

  /** `num gen obj value` at an offset: the value, or a stream. */
  private objectAt(offset: number): Value {
    const lexer = new Lexer(this.buf, offset);
    if (!/^\d+$/.test(lexer.word()) || !/^\d+$/.test(lexer.word()) || lexer.word() !== 'obj') fail('no object at its offset');
    const value = lexer.value();
    const save = lexer.pos;
    if (!isDict(value) || lexer.word() !== 'stream') {
      lexer.pos = save;
      return value;
    }
    let start = lexer.pos;
    if (this.buf[start] === 13) start++;
    if (this.buf[start] === 10) start++;
    return { dict: value, start };
  }

  private streamData(stream: Stream): Buffer {
    let length = stream.dict.get('Length');
    if (isRef(length)) length = this.resolve(length);
    let end = typeof length === 'number' && Number.isInteger(length) && length >= 0 ? stream.start + length : -1;
    if (end < 0 || end > this.buf.length) end = this.buf.indexOf('endstream', stream.start);
    if (end < 0) fail('unterminated stream');
    const raw = this.buf.subarray(stream.start, end);
    const filter = stream.dict.get('Filter');
    const filters = Array.isArray(filter) ? filter : filter === undefined ? [] : [filter];
    if (filters.length === 0) return raw;
    if (filters.length > 1 || !isName(filters[0], 'FlateDecode')) fail('an unsupported stream filter');
    let data: Buffer;
    try {
      data = zlib.inflateSync(raw, { maxOutputLength: 64 * 1024 * 1024 });
    } catch {
      return fail('a stream does not inflate');
    }
    let parms = stream.dict.get('DecodeParms');
    if (Array.isArray(parms)) parms = parms[0];
    return isDict(parms) ? unpredict(data, parms) : data;
  }

  resolve(ref: Ref): Value {
    const cached = this.cache.get(ref.num);
    if (cached !== undefined || this.cache.has(ref.num)) return cached!;
    if (this.resolving.has(ref.num)) fail('an object refers to itself');
    this.resolving.add(ref.num);
    try {
      const entry = this.entries.get(ref.num);
      const value = entry === undefined ? null : entry.type === 1 ? this.objectAt(entry.offset) : this.fromObjectStream(entry.stream, ref.num);
      this.cache.set(ref.num, value);
      return value;
    } finally {
      this.resolving.delete(ref.num);
    }
  }

  private fromObjectStream(streamNum: number, num: number): Value {
    let objStream = this.objStreams.get(streamNum);
    if (!objStream) {
      const stream = this.resolve({ num: streamNum, gen: 0 });
      if (!isStream(stream)) fail('an object stream is not a stream');
      const data = this.streamData(stream);
      const n = stream.dict.get('N');
      const first = stream.dict.get('First');
      if (typeof n !== 'number' || typeof first !== 'number') fail('bad object stream');
      const lexer = new Lexer(data, 0);
      const offsets = new Map<number, number>();
      for (let i = 0; i < n; i++) offsets.set(Number(lexer.word()), Number(lexer.word()));
      objStream = { data, first, offsets };
      this.objStreams.set(streamNum, objStream);
    }
    const offset = objStream.offsets.get(num);
    if (offset === undefined) return null;
    return new Lexer(objStream.data, objStream.first + offset).value();
  }
}

/** Undo a PNG predictor (10 to 15), the one cross-reference and object streams use. */
function unpredict(data: Buffer, parms: Dict): Buffer {
  const predictor = parms.get('Predictor');
  if (typeof predictor !== 'number' || predictor < 2) return data;
  if (predictor < 10) fail('an unsupported predictor');
  const get = (k: string, d: number) => {
    const v = parms.get(k);
    return typeof v === 'number' ? v : d;
  };
  const bpp = Math.max(1, Math.ceil((get('Colors', 1) * get('BitsPerComponent', 8)) / 8));
  const width = Math.ceil((get('Columns', 1) * get('Colors', 1) * get('BitsPerComponent', 8)) / 8);
  const rows = Math.floor(data.length / (width + 1));
  const out = Buffer.alloc(rows * width);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (width + 1)]!;
    for (let i = 0; i < width; i++) {
      const x = data[r * (width + 1) + 1 + i]!;
      const left = i >= bpp ? out[r * width + i - bpp]! : 0;
      const up = r > 0 ? out[(r - 1) * width + i]! : 0;
      const upLeft = r > 0 && i >= bpp ? out[(r - 1) * width + i - bpp]! : 0;
      let v: number;
      if (type === 0) v = x;
      else if (type === 1) v = x + left;
      else if (type === 2) v = x + up;
      else if (type === 3) v = x + ((left + up) >> 1);
      else if (type === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        v = x + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      } else return fail('a bad PNG predictor row');
      out[r * width + i] = v & 255;
    }
  }
  return out;
}

/**
 * Walk the page tree from the catalog's /Pages: every node counts, the root
 * at depth 1. Refuses past `maxNodes` nodes or `maxDepth` levels.
 * @example pageTreeVerdict(bytes, 2000, 32) // { ok: true, nodes: 4, depth: 2 }
 */
export function pageTreeVerdict(bytes: Uint8Array, maxNodes: number, maxDepth: number): TreeVerdict {
  try {
    const objects = new PdfObjects(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const deref = (v: Value | undefined) => (isRef(v) ? objects.resolve(v) : v);
    const catalog = deref(objects.trailer.get('Root'));
    if (!isDict(catalog)) fail('no catalog');
    const stack: { node: Value | undefined; depth: number }[] = [{ node: catalog.get('Pages'), depth: 1 }];
    let nodes = 0;
    let deepest = 0;
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      if (++nodes > maxNodes) return { ok: false, reason: 'page_tree_nodes', message: `The page tree has more than ${maxNodes} nodes.` };
      if (depth > maxDepth) return { ok: false, reason: 'page_tree_depth', message: `The page tree is more than ${maxDepth} levels deep.` };
      deepest = Math.max(deepest, depth);
      const dict = deref(node);
      if (!isDict(dict)) fail('a page tree node is not a dictionary');
      const kids = deref(dict.get('Kids'));
      if (isName(dict.get('Type'), 'Page') || !Array.isArray(kids)) continue;
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], depth: depth + 1 });
    }
    return { ok: true, nodes, depth: deepest };
  } catch (err) {
    if (err instanceof Unreadable || err instanceof RangeError) return { ok: false, reason: 'page_tree_unreadable', message: `The page tree could not be measured (${err.message}).` };
    throw err;
  }
}

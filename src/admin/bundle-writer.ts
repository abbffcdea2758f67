/**
 * Writes a backup bundle (see bundle.ts for the format) in one pass: each file
 * is read once, in large chunks, and every chunk is hashed on its way into the
 * tar stream, so the manifest's SHA-256 is of the very bytes in the bundle.
 * Reading the next chunk and writing earlier ones run on the I/O threads while
 * this thread hashes. The bundle is written to `<name>.partial`, synced once at
 * the end, renamed, and its folder synced: an interrupted backup never leaves a
 * file under the final name.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SvcError } from '../errors.js';
import { MANIFEST_NAME, type BundleSource, type Manifest, type ManifestFile } from './bundle.js';

const CHUNK = 4 << 20;
/** Bytes of tar output waiting for the disk before the packer pauses. */
const QUEUE_LIMIT = 32 << 20;

const changed = (name: string) => new SvcError(409, 'backup_source_changed', `${name} changed while it was copied; run the backup again.`);

/** Appends buffers to a file descriptor in order, off this thread, with a bounded queue. */
class FdSink {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private waiters: (() => void)[] = [];
  error: unknown = null;
  bytes = 0;

  constructor(private readonly fd: number) {}

  push(chunk: Buffer): void {
    this.queued += chunk.length;
    this.tail = this.tail.then(async () => {
      if (this.error === null) {
        try {
          let off = 0;
          while (off < chunk.length) off += (await writeAsync(this.fd, chunk, off, chunk.length - off)) || failShortWrite();
          this.bytes += chunk.length;
        } catch (err) {
          this.error = err;
        }
      }
      this.queued -= chunk.length;
      if (this.queued <= QUEUE_LIMIT / 2 || this.error !== null) for (const w of this.waiters.splice(0)) w();
    });
  }

  get full(): boolean {
    return this.queued > QUEUE_LIMIT && this.error === null;
  }

  room(): Promise<void> {
    return this.full ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }

  async flush(): Promise<void> {
    await this.tail;
    if (this.error !== null) throw this.error;
  }
}

function failShortWrite(): never {
  throw new SvcError(500, 'backup_write_failed', 'The bundle could not be written (the disk accepted nothing).');
}

const writeAsync = (fd: number, buf: Buffer, off: number, len: number) =>
  new Promise<number>((resolve, reject) => fs.write(fd, buf, off, len, null, (err, n) => (err ? reject(err) : resolve(n))));
const readAsync = (fd: number, buf: Buffer, pos: number) =>
  new Promise<number>((resolve, reject) => fs.read(fd, buf, 0, buf.length, pos, (err, n) => (err ? reject(err) : resolve(n))));

interface EntrySink {
  write(chunk: Buffer): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/** Read `size` bytes of `fd` once, in order, into `entry` while hashing them; the next read is always in flight. */
async function copyHashed(fd: number, size: number, name: string, entry: EntrySink, hash: crypto.Hash): Promise<void> {
  let pos = 0;
  const next = (): Promise<[Buffer, number]> | null => {
    if (pos >= size) return null;
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, size - pos));
    const at = pos;
    pos += buf.length;
    return readAsync(fd, buf, at).then((n) => [buf, n]);
  };
  let pending = next();
  while (pending) {
    const [buf, n] = await pending;
    if (n !== buf.length) throw changed(name);
    pending = next();
    hash.update(buf);
    if (!entry.write(buf)) await new Promise<void>((resolve) => entry.once('drain', resolve));
  }
  // Bytes beyond the size in the header mean the file grew.
  if ((await readAsync(fd, Buffer.allocUnsafe(1), size)) !== 0) throw changed(name);
}

/** Open a file to copy, never through a link; a missing one is the caller's 409. */
function openSource(source: BundleSource): number {
  try {
    return fs.openSync(source.from, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') throw new SvcError(409, 'backup_source_missing', `${source.path} is missing on disk (or is a link); check the Library (\`svc library check\`) and try again.`, { path: source.path });
    throw err;
  }
}

function syncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some filesystems refuse to sync a folder; the bundle itself is synced.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Write `sources` and the manifest to `target` (atomically); answers the bundle's size and the manifest's SHA-256. */
export async function writeBundle(
  target: string,
  sources: BundleSource[],
  manifest: Omit<Manifest, 'files'>,
  onProgress?: (done: number, total: number) => void,
): Promise<{ manifest: Manifest; size: number; manifest_sha256: string }> {
  const tar = await import('tar-stream');
  const partial = `${target}.partial`;
  const out = fs.openSync(partial, 'wx', 0o600);
  const sink = new FdSink(out);
  const pack = tar.pack({ highWaterMark: CHUNK } as never);
  pack.on('data', (chunk: unknown) => {
    sink.push(chunk as Buffer);
    if (sink.full) {
      pack.pause();
      void sink.room().then(() => pack.resume());
    }
  });
  const ended = new Promise<void>((resolve, reject) => {
    pack.once('end', resolve);
    pack.once('error', reject);
  });
  ended.catch(() => {});
  const files: ManifestFile[] = [];
  try {
    for (const [i, source] of sources.entries()) {
      const fd = openSource(source);
      try {
        const stat = fs.fstatSync(fd);
        if (!stat.isFile()) throw new SvcError(409, 'backup_source_missing', `${source.path} is not a regular file; check the Library (\`svc library check\`).`, { path: source.path });
        const hash = crypto.createHash('sha256');
        const mode = stat.mode & 0o777;
        let entry!: ReturnType<typeof pack.entry>;
        const entryDone = new Promise<void>((resolve, reject) => {
          entry = pack.entry({ name: source.path, size: stat.size, mode, mtime: stat.mtime, type: 'file' }, (err) => (err ? reject(err) : resolve()));
        });
        entryDone.catch(() => {});
        await copyHashed(fd, stat.size, source.path, entry, hash);
        entry.end(undefined as never);
        await entryDone;
        if (sink.error !== null) throw sink.error;
        files.push({ path: source.path, kind: source.kind, size: stat.size, sha256: hash.digest('hex'), mode });
      } finally {
        fs.closeSync(fd);
      }
      onProgress?.(i + 1, sources.length);
    }
    const full: Manifest = { ...manifest, files };
    const text = Buffer.from(JSON.stringify(full, null, 2) + '\n', 'utf8');
    await new Promise<void>((resolve, reject) => pack.entry({ name: MANIFEST_NAME, size: text.length, mode: 0o600 }, text, (err) => (err ? reject(err) : resolve())));
    pack.finalize();
    await ended;
    await sink.flush();
    fs.fsyncSync(out);
    fs.closeSync(out);
    fs.renameSync(partial, target);
    syncDir(path.dirname(target));
    return { manifest: full, size: sink.bytes, manifest_sha256: crypto.createHash('sha256').update(text).digest('hex') };
  } catch (err) {
    pack.destroy();
    await sink.flush().catch(() => {});
    try {
      fs.closeSync(out);
    } catch {
      // already closed
    }
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

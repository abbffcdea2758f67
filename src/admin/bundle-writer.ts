/**
 * Writes a backup bundle (see bundle.ts for the format) in one pass: each file
 * is read once, in large chunks, by worker threads (hash-worker.ts) that hash
 * every chunk before handing it here to go into the tar stream, so the
 * manifest's SHA-256 is of the very bytes in the bundle. Files are shared out
 * round-robin between the workers, so while this thread writes one file the
 * next ones are already being read and hashed on other cores. The bundle is
 * written to `<name>.partial` (flushed to disk in the background as it grows),
 * synced at the end, renamed, and its folder synced: an interrupted backup
 * never leaves a file under the final name.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SvcError } from '../errors.js';
import { MANIFEST_NAME, type BundleSource, type Manifest, type ManifestFile } from './bundle.js';
import { READ_CHUNK, Readers, type ReaderMessage } from './bundle-readers.js';

/** Bytes of tar output waiting for the disk before the packer pauses. */
const QUEUE_LIMIT = 32 << 20;
/** Ask the disk to take what has been written every so many bytes, while writing goes on. */
const SYNC_EVERY = 128 << 20;

/** Appends buffers to a file descriptor in order, off this thread, with a bounded queue; flushes to disk in the background. */
class FdSink {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private waiters: (() => void)[] = [];
  private syncing: Promise<void> | null = null;
  private syncedUpTo = 0;
  error: unknown = null;
  bytes = 0;

  constructor(
    private readonly fd: number,
    private readonly written: (chunk: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    this.queued += chunk.length;
    this.tail = this.tail.then(async () => {
      if (this.error === null) {
        try {
          let off = 0;
          while (off < chunk.length) off += (await writeAsync(this.fd, chunk, off, chunk.length - off)) || failShortWrite();
          this.bytes += chunk.length;
          this.backgroundSync();
        } catch (err) {
          this.error = err;
        }
      }
      this.queued -= chunk.length;
      this.written(chunk);
      if (this.queued <= QUEUE_LIMIT / 2 || this.error !== null) for (const w of this.waiters.splice(0)) w();
    });
  }

  private backgroundSync(): void {
    if (this.syncing || this.bytes - this.syncedUpTo < SYNC_EVERY) return;
    const upTo = this.bytes;
    this.syncing = new Promise<void>((resolve) =>
      fs.fdatasync(this.fd, (err) => {
        if (err && this.error === null) this.error = err;
        this.syncedUpTo = upTo;
        this.syncing = null;
        resolve();
      }),
    );
  }

  get full(): boolean {
    return this.queued > QUEUE_LIMIT && this.error === null;
  }

  room(): Promise<void> {
    return this.full ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }

  /** Every queued write done and no background sync running. */
  async flush(): Promise<void> {
    await this.tail;
    await this.syncing;
    if (this.error !== null) throw this.error;
  }
}

function failShortWrite(): never {
  throw new SvcError(500, 'backup_write_failed', 'The bundle could not be written (the disk accepted nothing).');
}

const writeAsync = (fd: number, buf: Buffer, off: number, len: number) =>
  new Promise<number>((resolve, reject) => fs.write(fd, buf, off, len, null, (err, n) => (err ? reject(err) : resolve(n))));

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

function readFailure(source: BundleSource, m: ReaderMessage): SvcError | unknown {
  if (m.t === 'crash') return m.error;
  if (m.t === 'fail' && m.code === 'missing') return new SvcError(409, 'backup_source_missing', `${source.path} is missing on disk (or is a link); check the Library (\`svc library check\`) and try again.`, { path: source.path });
  if (m.t === 'fail') return new SvcError(409, 'backup_source_changed', `${source.path} changed while it was copied; run the backup again.`, { path: source.path });
  return new SvcError(500, 'backup_read_failed', `Reading ${source.path} went out of order.`);
}

type Pack = ReturnType<typeof import('tar-stream').pack>;

/** One source into the tar: header from what the worker saw when it opened the file, then its chunks in order. */
async function packSource(pack: Pack, readers: Readers, k: number, source: BundleSource): Promise<ManifestFile> {
  await source.ready;
  const opened = await readers.next(k);
  if (opened.t !== 'open') throw readFailure(source, opened);
  const { size, mode } = opened;
  let entry!: ReturnType<Pack['entry']>;
  const entryDone = new Promise<void>((resolve, reject) => {
    entry = pack.entry({ name: source.path, size, mode, mtime: new Date(opened.mtimeMs), type: 'file' }, (err) => (err ? reject(err) : resolve()));
  });
  entryDone.catch(() => {});
  for (;;) {
    const m = await readers.next(k);
    if (m.t === 'chunk') {
      if (!entry.write(Buffer.from(m.buf, 0, m.n))) await new Promise<void>((resolve) => entry.once('drain', resolve));
      continue;
    }
    if (m.t !== 'done') throw readFailure(source, m);
    entry.end(undefined as never);
    await entryDone;
    return { path: source.path, kind: source.kind, size, sha256: m.sha256, mode };
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
  const readers = new Readers(sources);
  const sink = new FdSink(out, (chunk) => readers.release(chunk.buffer));
  const pack = tar.pack({ highWaterMark: 4 * READ_CHUNK } as never);
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
  let closed = false;
  try {
    const files: ManifestFile[] = [];
    for (const [k, source] of sources.entries()) {
      files.push(await packSource(pack, readers, k, source));
      if (sink.error !== null) throw sink.error;
      onProgress?.(k + 1, sources.length);
    }
    await readers.stop();
    const full: Manifest = { ...manifest, files };
    const text = Buffer.from(JSON.stringify(full, null, 2) + '\n', 'utf8');
    await new Promise<void>((resolve, reject) => pack.entry({ name: MANIFEST_NAME, size: text.length, mode: 0o600 }, text, (err) => (err ? reject(err) : resolve())));
    pack.finalize();
    await ended;
    await sink.flush();
    fs.fsyncSync(out);
    closed = true;
    fs.closeSync(out);
    fs.renameSync(partial, target);
    syncDir(path.dirname(target));
    return { manifest: full, size: sink.bytes, manifest_sha256: crypto.createHash('sha256').update(text).digest('hex') };
  } catch (err) {
    pack.destroy();
    await readers.stop();
    await sink.flush().catch(() => {});
    if (!closed) fs.closeSync(out);
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

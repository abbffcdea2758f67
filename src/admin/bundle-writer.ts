/**
 * Writes a backup bundle (see bundle.ts for the format). Every file's place
 * in the tar is fixed in advance from its size (tar-header.ts), so worker
 * threads (hash-worker.ts) copy files in parallel, each straight to its
 * offset: every file is read once, in chunks hashed on their way into the
 * bundle, so the manifest's SHA-256 is of the very bytes in the bundle. The
 * bundle is written to `<name>.partial` (flushed to disk in the background as
 * it grows), synced at the end, renamed, and its folder synced: an
 * interrupted backup never leaves a file under the final name.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SvcError } from '../errors.js';
import { MANIFEST_NAME, type BundleSource, type Manifest, type ManifestFile } from './bundle.js';
import { Copiers } from './bundle-copiers.js';
import { END_OF_ARCHIVE, fileHeader, padded } from './tar-header.js';

/** Ask the disk to take what has been written every so many bytes, while copying goes on. */
const SYNC_EVERY = 128 << 20;

class BackgroundSync {
  private since = 0;
  private running: Promise<void> | null = null;
  private error: unknown = null;

  constructor(private readonly fd: number) {}

  progress(bytes: number): void {
    this.since += bytes;
    if (this.running || this.since < SYNC_EVERY) return;
    this.since = 0;
    this.running = new Promise<void>((resolve) =>
      fs.fdatasync(this.fd, (err) => {
        if (err) this.error ??= err;
        this.running = null;
        resolve();
      }),
    );
  }

  async idle(): Promise<void> {
    await this.running;
    if (this.error !== null) throw this.error;
  }
}

function writeAt(fd: number, data: Buffer, position: number): void {
  for (let done = 0; done < data.length; ) done += fs.writeSync(fd, data, done, data.length - done, position + done);
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

const missing = (source: BundleSource) =>
  new SvcError(409, 'backup_source_missing', `${source.path} is missing on disk (or is not a plain file); check the Library (\`svc library check\`) and try again.`, { path: source.path });
const changed = (source: BundleSource) => new SvcError(409, 'backup_source_changed', `${source.path} changed while it was copied; run the backup again.`, { path: source.path });

/** Write `sources` and the manifest to `target` (atomically); answers the bundle's size and the manifest's SHA-256. */
export async function writeBundle(
  target: string,
  sources: BundleSource[],
  manifest: Omit<Manifest, 'files'>,
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<{ manifest: Manifest; size: number; manifest_sha256: string }> {
  signal?.throwIfAborted();
  // Stopping (Ctrl-C in `svc backup`) ends the waits below, so the catch removes the partial bundle.
  const stopped = new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
  stopped.catch(() => {});
  const unlessStopped = <T>(p: Promise<T>): Promise<T> => (signal ? Promise.race([p, stopped]) : p);
  const partial = `${target}.partial`;
  const out = fs.openSync(partial, 'wx', 0o600);
  // The partial is this writer's claim on `target`: a bundle another writer finished under that name
  // between the caller's look and this claim is never replaced by the rename below.
  if (fs.existsSync(target)) {
    fs.closeSync(out);
    fs.rmSync(partial, { force: true });
    throw Object.assign(new Error(`${path.basename(target)} exists`), { code: 'EEXIST', targetExists: true });
  }
  const copiers = new Copiers(out, sources.length);
  const sync = new BackgroundSync(out);
  let closed = false;
  try {
    const files: ManifestFile[] = [];
    const copies: Promise<void>[] = [];
    let offset = 0;
    let done = 0;
    for (const [k, source] of sources.entries()) {
      await unlessStopped(Promise.resolve(source.ready));
      signal?.throwIfAborted();
      const stat = fs.lstatSync(source.from, { throwIfNoEntry: false });
      if (!stat?.isFile()) throw missing(source);
      const { size } = stat;
      const mode = stat.mode & 0o777;
      const header = fileHeader(source.path, size, mode, stat.mtimeMs / 1000);
      writeAt(out, header, offset);
      const copy = copiers.copy({ from: source.from, offset: offset + header.length, size }).then((r) => {
        if ('fail' in r) throw r.fail === 'missing' ? missing(source) : changed(source);
        files[k] = { path: source.path, kind: source.kind, size, sha256: r.sha256, mode };
        sync.progress(size);
        onProgress?.(++done, sources.length);
      });
      copy.catch(() => {});
      copies.push(copy);
      offset += header.length + padded(size);
    }
    await unlessStopped(Promise.all(copies));
    await copiers.stop();
    const full: Manifest = { ...manifest, files };
    const text = Buffer.from(JSON.stringify(full, null, 2) + '\n', 'utf8');
    const header = fileHeader(MANIFEST_NAME, text.length, 0o600, Date.now() / 1000);
    writeAt(out, header, offset);
    writeAt(out, text, offset + header.length);
    // The padding after each file and the two zero blocks that end the archive read as zeros.
    const size = offset + header.length + padded(text.length) + END_OF_ARCHIVE;
    fs.ftruncateSync(out, size);
    await sync.idle();
    fs.fsyncSync(out);
    closed = true;
    fs.closeSync(out);
    fs.renameSync(partial, target);
    syncDir(path.dirname(target));
    return { manifest: full, size, manifest_sha256: crypto.createHash('sha256').update(text).digest('hex') };
  } catch (err) {
    await copiers.stop();
    await sync.idle().catch(() => {});
    if (!closed) fs.closeSync(out);
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

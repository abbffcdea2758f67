/**
 * Reads and hashes a backup's files off the main thread. Input: workerData
 * chunk (bytes per read) and buffers (how many chunks may be out at once);
 * then messages {file} (absolute paths, read in the order sent) and {end}.
 * For each file it posts
 * {t: 'open', size, mode, mtimeMs}, then {t: 'chunk', buf, n} with the
 * ArrayBuffer transferred (the main thread writes it into the bundle and
 * sends it back as {buf} for reuse), then {t: 'done', sha256}; or
 * {t: 'fail', code: 'missing' | 'changed', message} and stops. Files are
 * opened without following links. Each byte is read once: the hash is of the
 * very bytes the bundle receives.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { chunk, buffers } = workerData as { chunk: number; buffers: number };
const port = parentPort!;
const pool: ArrayBuffer[] = [];
const files: string[] = [];
let ended = false;
let allocated = 0;
let wake: (() => void) | null = null;

port.on('message', (m: { buf?: ArrayBuffer; file?: string; end?: true }) => {
  if (m.buf) pool.push(m.buf);
  if (m.file) files.push(m.file);
  if (m.end) ended = true;
  const w = wake;
  wake = null;
  w?.();
});

const nextFile = async (): Promise<string | null> => {
  for (;;) {
    const f = files.shift();
    if (f) return f;
    if (ended) return null;
    await new Promise<void>((resolve) => (wake = resolve));
  }
};

async function buffer(): Promise<ArrayBuffer> {
  for (;;) {
    const b = pool.pop();
    if (b) return b;
    if (allocated < buffers) {
      allocated++;
      return new ArrayBuffer(chunk);
    }
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

function open(file: string): number | null {
  try {
    return fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return null;
    throw err;
  }
}

async function copy(file: string): Promise<boolean> {
  const fd = open(file);
  if (fd === null) {
    port.postMessage({ t: 'fail', code: 'missing' });
    return false;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      port.postMessage({ t: 'fail', code: 'missing' });
      return false;
    }
    port.postMessage({ t: 'open', size: stat.size, mode: stat.mode & 0o777, mtimeMs: stat.mtimeMs });
    const hash = crypto.createHash('sha256');
    let pos = 0;
    while (pos < stat.size) {
      const buf = await buffer();
      const view = new Uint8Array(buf, 0, Math.min(chunk, stat.size - pos));
      let n = 0;
      while (n < view.length) {
        const got = fs.readSync(fd, view, n, view.length - n, pos + n);
        if (got === 0) break;
        n += got;
      }
      if (n < view.length) {
        pool.push(buf);
        port.postMessage({ t: 'fail', code: 'changed' });
        return false;
      }
      hash.update(view);
      pos += n;
      port.postMessage({ t: 'chunk', buf, n }, [buf]);
    }
    // A byte beyond the size announced in the tar header means the file grew.
    if (fs.readSync(fd, new Uint8Array(1), 0, 1, stat.size) !== 0) {
      port.postMessage({ t: 'fail', code: 'changed' });
      return false;
    }
    port.postMessage({ t: 'done', sha256: hash.digest('hex') });
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

for (let file = await nextFile(); file !== null; file = await nextFile()) if (!(await copy(file))) break;

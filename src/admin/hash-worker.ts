/**
 * Copies backup files into the bundle off the main thread. workerData: fd
 * (the open partial bundle; threads share the process's descriptors) and
 * chunk (bytes per read). Each message {k, from, offset, size} copies one
 * file: opened without following links, checked to still have the size its
 * tar header announces, read once in chunks that are hashed and written at
 * their place in the bundle. Answers {k, sha256} or {k, fail: 'missing' |
 * 'changed'}; an I/O error ends the thread (the writer sees it).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { fd: out, chunk } = workerData as { fd: number; chunk: number };
const port = parentPort!;
const buffer = Buffer.allocUnsafeSlow(chunk);

function open(file: string): number | null {
  try {
    return fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return null;
    throw err;
  }
}

function write(data: Buffer, position: number): void {
  for (let done = 0; done < data.length; ) done += fs.writeSync(out, data, done, data.length - done, position + done);
}

function copy(from: string, offset: number, size: number): { sha256: string } | { fail: 'missing' | 'changed' } {
  const fd = open(from);
  if (fd === null) return { fail: 'missing' };
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { fail: 'missing' };
    if (stat.size !== size) return { fail: 'changed' };
    const hash = crypto.createHash('sha256');
    for (let pos = 0; pos < size; ) {
      const want = Math.min(chunk, size - pos);
      const n = fs.readSync(fd, buffer, 0, want, pos);
      if (n === 0) return { fail: 'changed' };
      const data = buffer.subarray(0, n);
      hash.update(data);
      write(data, offset + pos);
      pos += n;
    }
    // A byte beyond the size in the tar header means the file grew.
    if (fs.readSync(fd, buffer, 0, 1, size) !== 0) return { fail: 'changed' };
    return { sha256: hash.digest('hex') };
  } finally {
    fs.closeSync(fd);
  }
}

port.on('message', (job: { k: number; from: string; offset: number; size: number }) => {
  port.postMessage({ k: job.k, ...copy(job.from, job.offset, job.size) });
});

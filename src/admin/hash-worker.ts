/**
 * Hashes files in a worker thread so that a backup's SHA-256 work runs beside
 * its streaming I/O instead of in front of it. Input: workerData.files
 * (absolute paths); posts one {size, sha256} per file, in order.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const buffer = Buffer.allocUnsafe(1 << 20);
for (const file of (workerData as { files: string[] }).files) {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const fd = fs.openSync(file, 'r');
  try {
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      size += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  parentPort!.postMessage({ size, sha256: hash.digest('hex') });
}

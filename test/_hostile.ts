/**
 * The hostile-input suite's canary: a folder of files beside svc's own data,
 * state and vault folders that no attack may touch. Each test plants one next
 * to its temp dirs and checks it after the attack: same names, same bytes,
 * same modes, nothing added, nothing removed, no entry followed or replaced.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Canary {
  dir: string;
  /** Throws, naming what changed, when anything under the canary differs from when it was planted. */
  check(): void;
}

function snapshot(dir: string): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      const rel = path.relative(dir, full);
      const stat = fs.lstatSync(full);
      if (entry.isDirectory()) {
        seen.set(rel, `dir ${stat.mode}`);
        walk(full);
      } else if (entry.isFile()) {
        const hash = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
        seen.set(rel, `file ${stat.mode} ${stat.ino} ${hash}`);
      } else {
        seen.set(rel, `other ${stat.mode}`);
      }
    }
  };
  walk(dir);
  return seen;
}

/**
 * Plant a canary folder (default name "precious") inside `parent`, with a few files and a subfolder,
 * and `files` (name → text): files named as svc names its own, which an attack would replace.
 */
export function plantCanary(parent: string, name = 'precious', files: Record<string, string> = {}): Canary {
  const dir = path.join(parent, name);
  fs.mkdirSync(path.join(dir, 'nested'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'thesis.tex'), '\\documentclass{article} % years of work\n');
  fs.writeFileSync(path.join(dir, 'data.csv'), 'id,value\n1,42\n');
  fs.writeFileSync(path.join(dir, 'nested', 'notes.md'), '# keep me\n');
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  const before = snapshot(dir);
  return {
    dir,
    check() {
      assert.ok(fs.existsSync(dir), `canary folder ${dir} is gone`);
      const after = snapshot(dir);
      const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
      assert.deepEqual(changed, [], `canary folder ${dir} changed: ${changed.join(', ')}`);
    },
  };
}

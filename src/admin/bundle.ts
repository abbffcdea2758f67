/**
 * The backup bundle: a POSIX tar archive of files, then manifest.json as
 * the last entry, naming every file with its kind, size and SHA-256. A
 * bundle is written (bundle-writer.ts) to `<name>.partial` and renamed only
 * when complete and synced, so an interrupted backup never looks like a
 * finished one. Reading (tar-stream) recomputes every hash; a missing manifest, an unlisted entry, a listed file
 * that is absent or differs, or an unsafe name (bundle-names.ts) refuses the whole bundle.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { SvcError } from '../errors.js';
import { shownName, unsafeNameProblem } from './bundle-names.js';

export const BUNDLE_FORMAT = 'svc-backup';
export const BUNDLE_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

export type BundleFileKind = 'database' | 'vault' | 'report';

export interface ManifestFile {
  path: string;
  kind: BundleFileKind;
  size: number;
  sha256: string;
  mode: number;
}

export interface Manifest {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  created_at_utc: string;
  svc_version: string;
  schema_version: number;
  include_reports: boolean;
  vault: { vault_id: string; label: string; folder_name: string } | null;
  tables: Record<string, number>;
  files: ManifestFile[];
}

export interface BundleSource {
  path: string;
  kind: BundleFileKind;
  /** Absolute file to read. */
  from: string;
  /** When the file is still being made (the database snapshot): it is read once this resolves. */
  ready?: Promise<void>;
}

function hashing(hash: crypto.Hash, count: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      count.bytes += chunk.length;
      done(null, chunk);
    },
  });
}

/** `manifest_sha256` fingerprints the bundle: the manifest lists every file's SHA-256. */
export interface ReadResult {
  manifest: Manifest;
  size: number;
  manifest_sha256: string;
}

export const bundleInvalid = (message: string, extra: Record<string, unknown> = {}) => new SvcError(422, 'bundle_invalid', message, extra);

/**
 * Read a bundle, recomputing every hash. With `extractTo`, each listed file is
 * also written (owner-only, never through a link) where `extractTo` says;
 * nothing is kept when the bundle fails.
 */
export async function readBundle(file: string, extractTo?: (entry: string) => string | null): Promise<ReadResult> {
  const tar = await import('tar-stream');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new SvcError(404, 'bundle_not_found', 'No backup bundle at that path.');
  }
  // A folder (the backups folder, say) is a wrong argument, not a damaged bundle.
  if (stat.isDirectory()) throw new SvcError(400, 'bundle_is_folder', 'That path is a folder, not a bundle; name the .tar file of a backup inside it.');
  if (!stat.isFile()) throw bundleInvalid('The path is not a regular file.');
  const seen = new Map<string, { size: number; sha256: string }>();
  const extracted: string[] = [];
  let manifestText: string | null = null;
  let afterManifest = false;
  const extract = tar.extract();
  const input: Readable = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  const reading = pipeline(input, extract).catch((err) => {
    throw err instanceof SvcError ? err : bundleInvalid('The bundle is not a readable tar archive (truncated or damaged).');
  });
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (afterManifest) throw bundleInvalid('The bundle has entries after its manifest.');
      if (entry.header.type !== 'file') throw bundleInvalid('The bundle holds an entry that is not a plain file.');
      const unsafe = unsafeNameProblem(name);
      if (unsafe) throw bundleInvalid(`The bundle holds an entry whose name ${unsafe}: ${shownName(name)}.`);
      if (seen.has(name) || (name === MANIFEST_NAME && manifestText !== null)) throw bundleInvalid('The bundle holds one name twice.');
      if (name === MANIFEST_NAME) {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of entry) {
          size += (chunk as Buffer).length;
          if (size > MANIFEST_MAX_BYTES) throw bundleInvalid('The manifest is too large.');
          chunks.push(chunk as Buffer);
        }
        manifestText = Buffer.concat(chunks).toString('utf8');
        afterManifest = true;
        continue;
      }
      const hash = crypto.createHash('sha256');
      const count = { bytes: 0 };
      const dest = extractTo?.(name) ?? null;
      if (dest) {
        fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
        extracted.push(dest);
        await pipeline(entry, hashing(hash, count), fs.createWriteStream(dest, { flags: 'wx', mode: 0o600 }));
      } else {
        for await (const chunk of entry) {
          hash.update(chunk as Buffer);
          count.bytes += (chunk as Buffer).length;
        }
      }
      seen.set(name, { size: count.bytes, sha256: hash.digest('hex') });
    }
    await reading;
  } catch (err) {
    input.destroy();
    await reading.catch(() => {});
    for (const f of extracted) fs.rmSync(f, { force: true });
    throw err instanceof SvcError ? err : bundleInvalid('The bundle is not a readable tar archive (truncated or damaged).');
  }
  try {
    if (manifestText === null) throw bundleInvalid('The bundle has no manifest: it is incomplete (an interrupted backup) or not an svc backup.');
    const manifest = parseManifest(manifestText);
    const listed = new Set<string>();
    for (const f of manifest.files) {
      listed.add(f.path);
      const got = seen.get(f.path);
      if (!got) throw bundleInvalid(`${f.path} is listed in the manifest but missing from the bundle.`, { path: f.path });
      if (got.size !== f.size || got.sha256 !== f.sha256) throw bundleInvalid(`${f.path} does not match its size and SHA-256 in the manifest: the bundle was damaged or altered.`, { path: f.path });
    }
    for (const name of seen.keys()) if (!listed.has(name)) throw bundleInvalid(`${name} is in the bundle but not in its manifest.`, { path: name });
    return { manifest, size: stat.size, manifest_sha256: crypto.createHash('sha256').update(manifestText, 'utf8').digest('hex') };
  } catch (err) {
    for (const f of extracted) fs.rmSync(f, { force: true });
    throw err;
  }
}

function parseManifest(text: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw bundleInvalid('The manifest is not JSON.');
  }
  const ok =
    m && m.format === BUNDLE_FORMAT && m.version === BUNDLE_VERSION && Array.isArray(m.files) && typeof m.created_at_utc === 'string' && Number.isInteger(m.schema_version) &&
    m.files.every((f) => f && typeof f.path === 'string' && ['database', 'vault', 'report'].includes(f.kind) && Number.isSafeInteger(f.size) && /^[0-9a-f]{64}$/.test(f.sha256));
  if (!ok) throw bundleInvalid(`The manifest is not an ${BUNDLE_FORMAT} version ${BUNDLE_VERSION} manifest.`);
  for (const f of m.files) {
    const unsafe = unsafeNameProblem(f.path);
    if (unsafe) throw bundleInvalid(`The manifest lists a file whose name ${unsafe}: ${shownName(f.path)}.`);
  }
  if (m.files.filter((f) => f.kind === 'database').length !== 1) throw bundleInvalid('The manifest must list exactly one database.');
  return m;
}

/**
 * The spec's route table (routes.tsv: method, path, doc, auth, note), used by
 * `svc routes --missing` to list what the server does not mount yet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SvcError } from '../src/errors.js';
import type { RouteDef } from './registry.js';

export interface SpecRoute {
  method: string;
  path: string;
  note: string;
}

/** SVC_SPEC_ROUTES, else ../shared/spec/routes.tsv from the working directory, else beside the install. */
export function findSpecRoutesFile(named: string | undefined, cwd: string): string {
  if (named) {
    if (!fs.existsSync(named)) throw new SvcError(404, 'spec_routes_absent', `SVC_SPEC_ROUTES names ${named}, which does not exist.`);
    return named;
  }
  const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const candidates = [path.resolve(cwd, '../shared/spec/routes.tsv'), path.resolve(packageRoot, '../shared/spec/routes.tsv')];
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) {
    throw new SvcError(404, 'spec_routes_absent', `The spec route table is absent (looked for ${candidates.join(' and ')}); set SVC_SPEC_ROUTES to its path.`);
  }
  return found;
}

export function readSpecRoutes(file: string): SpecRoute[] {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
  return lines
    .slice(lines[0]?.startsWith('method\t') ? 1 : 0)
    .map((line) => line.split('\t'))
    .map(([method = '', p = '', , , note = '']) => ({ method: method.trim().toUpperCase(), path: p.trim(), note: note.trim() }));
}

export function missingRoutes(spec: SpecRoute[], mounted: RouteDef[]): SpecRoute[] {
  const have = new Set(mounted.map((r) => `${r.method} ${r.path}`));
  return spec.filter((r) => !have.has(`${r.method} ${r.path}`));
}

/**
 * The spec's route table (routes.tsv: method, path, doc, auth, note), used by
 * `svc routes --missing` to list what the server does not mount yet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SvcError } from '../src/errors.js';
import type { RouteDef } from './registry.js';

/** The spec's route table as svc ships it (dist/server/ → the package root). */
export const SHIPPED_SPEC_ROUTES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'spec', 'routes.tsv');

export interface SpecRoute {
  method: string;
  path: string;
  note: string;
}

/**
 * SVC_SPEC_ROUTES, else the copy of the spec's table shipped with svc
 * (spec/routes.tsv, kept equal to the spec's by a test): a clean clone or an
 * install has no spec folder beside it.
 */
export function findSpecRoutesFile(named: string | undefined): string {
  if (named) {
    if (!fs.existsSync(named)) throw new SvcError(404, 'spec_routes_absent', `SVC_SPEC_ROUTES names ${named}, which does not exist.`);
    return named;
  }
  return SHIPPED_SPEC_ROUTES;
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

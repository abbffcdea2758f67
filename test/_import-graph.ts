/**
 * The tree's import graph, read from the TypeScript sources (not the build):
 * every relative import and re-export of src/, server/, commands/, bin/ and
 * the window (web/), static or dynamic, with whether it is erased at run time
 * (`import type`, or braces naming types only). A room is a folder under src/ (src/executions)
 * or a file directly in it (src/bus.ts is the room src/bus).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ImportEdge {
  /** Paths relative to the root, with / and the .ts of the source (a .js specifier names its .ts). */
  from: string;
  to: string;
  typeOnly: boolean;
  dynamic: boolean;
}

const SOURCE = /\.(ts|tsx|js|mjs)$/;

/** Source files under the folders named, relative to the root (declaration files left out). */
export function sourceFiles(...dirs: string[]): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) return walk(rel);
      return SOURCE.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
    });
  return dirs.filter((d) => fs.existsSync(path.join(ROOT, d))).flatMap(walk);
}

/** The text without its comments, so an import quoted in a comment is not read as one. */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

// import x from '…' · import { a, type B } from '…' · export * from '…' · import '…' · import('…')
const STATIC = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'|(?:^|[;\n])\s*import\s+'([^']+)'/g;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

function typeOnlyBraces(clause: string): boolean {
  const m = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!m) return false;
  const names = m[1]!.split(',').map((s) => s.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

function resolve(from: string, spec: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.js$/, '.ts');
}

/** Every import and re-export of one file as written, bare package names and node: ones included. */
export function specifiersOf(from: string): { spec: string; typeOnly: boolean; dynamic: boolean }[] {
  const text = withoutComments(fs.readFileSync(path.join(ROOT, from), 'utf8'));
  const found: { spec: string; typeOnly: boolean; dynamic: boolean }[] = [];
  for (const m of text.matchAll(STATIC)) found.push({ spec: m[4] ?? m[5]!, typeOnly: Boolean(m[2]) || (m[3] !== undefined && typeOnlyBraces(m[3])), dynamic: false });
  for (const m of text.matchAll(DYNAMIC)) found.push({ spec: m[1]!, typeOnly: false, dynamic: true });
  return found;
}

/** Every relative import of the files named. */
export function importsOf(files: string[]): ImportEdge[] {
  return files.flatMap((from) => specifiersOf(from).filter((s) => s.spec.startsWith('.')).map((s) => ({ from, to: resolve(from, s.spec), typeOnly: s.typeOnly, dynamic: s.dynamic })));
}

/** src/executions/runner.ts → src/executions; src/bus.ts → src/bus; anything outside src/ → null. */
export function roomOf(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts.length < 2) return null;
  return parts.length === 2 ? `src/${parts[1]!.replace(SOURCE, '')}` : `src/${parts[1]}`;
}

/**
 * The cycles of a directed graph (its strongly connected parts of more than
 * one node), each as its nodes; empty when there is none.
 */
export function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

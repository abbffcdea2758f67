/**
 * The house's import graph (issue 31): the service layer never imports a
 * door, a process ends only at the entry point, and the rooms of src/ lean
 * one way. Read from the sources, so a new import that breaks a wall fails
 * here whether or not any other test runs its code.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { TOOL_CATALOG } from '../src/agent-tools/tool-catalog.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { cyclesOf, importsOf, roomOf, ROOT, sourceFiles, specifiersOf, withoutComments } from './_import-graph.js';

const edges = importsOf(sourceFiles('src', 'server', 'commands', 'bin'));
const show = (list: { from: string; to: string }[]) => list.map((e) => `${e.from} → ${e.to}`);

test('the service layer imports no door: nothing under src/ but src/mcp/ imports server/, commands/ or src/mcp/', () => {
  const doors = /^(server|commands|src\/mcp)\//;
  const crossing = edges.filter((e) => e.from.startsWith('src/') && !e.from.startsWith('src/mcp/') && doors.test(e.to));
  assert.equal(show(crossing), []);
});

test('executions announce a settled run: src/executions imports nothing from delivery, similarity or profiles', () => {
  const downstream = edges.filter((e) => e.from.startsWith('src/executions/') && /^src\/(delivery|similarity|profiles)\//.test(e.to));
  assert.equal(show(downstream), []);
});

test('no import cycle between the rooms of src/ at run time (type-only imports are erased; a lazy import() counts)', () => {
  const graph = new Map<string, Set<string>>();
  const via = new Map<string, string[]>();
  for (const e of edges.filter((e) => !e.typeOnly)) {
    const [from, to] = [roomOf(e.from), roomOf(e.to)];
    if (!from || !to || from === to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
    via.set(`${from} ${to}`, [...(via.get(`${from} ${to}`) ?? []), `${e.from} → ${e.to}`]);
  }
  const cycles = cyclesOf(graph).map((rooms) => ({ rooms, through: [...via].filter(([k]) => k.split(' ').every((r) => rooms.includes(r))).flatMap(([, list]) => list) }));
  assert.equal(cycles, []);
});

/**
 * The window and the service share the JSON shapes of the routes, declared
 * once in src/wire/. The window is bundled for a browser: it may take those
 * declarations (erased by the bundler) and nothing else of the service, and
 * they in turn lean on nothing but each other (no service code, no Node types).
 */
test('the window imports nothing under src/ but types from src/wire/', () => {
  const crossing = importsOf(sourceFiles('web/src')).filter((e) => e.to.startsWith('src/') && !(e.to.startsWith('src/wire/') && e.typeOnly));
  assert.equal(show(crossing), []);
  assert.ok(
    importsOf(sourceFiles('web/src')).some((e) => e.to.startsWith('src/wire/')),
    'the window reads its answers\' shapes from src/wire/ (the graph sees those imports)',
  );
});

test('src/wire/ imports nothing outside src/wire/, not even a package', () => {
  const wire = sourceFiles('src/wire');
  const outside = wire.flatMap((from) =>
    specifiersOf(from)
      .filter((s) => !s.spec.startsWith('./') || s.spec.includes('/', 2))
      .map((s) => `${from} → ${s.spec}`),
  );
  assert.equal(outside, []);
  assert.ok(wire.length > 0, 'src/wire/ is read');
});

test('the MCP door defines exactly the tools of the catalogue, which says which write', () => {
  assert.equal(TOOLS.map((t) => t.name).sort(), Object.keys(TOOL_CATALOG).sort());
  for (const t of TOOLS) assert.is(t.write, TOOL_CATALOG[t.name] === 'write', t.name);
});

/**
 * Calls item 4 of issue 31 removes (a command ends by returning its exit code
 * to bin/svc.js). Each entry must still hold its call: once that item lands,
 * the entry fails here and is deleted, so the list only shrinks.
 */
test('only bin/svc.js and child-process entries (*-child.ts) call process.exit', () => {
  const calling = sourceFiles('src', 'server', 'commands', 'bin').filter((f) => /\bprocess\.exit\s*\(/.test(withoutComments(fs.readFileSync(path.join(ROOT, f), 'utf8'))));
  const allowed = (f: string) => f === 'bin/svc.js' || /-child\.ts$/.test(f);
  assert.equal(calling.filter((f) => !allowed(f)), []);
});

/**
 * One way to say which process owns something: every owner check goes
 * through the claims module, which knows who a process is beyond its pid.
 * A migration may keep a frozen copy of an old rule (it must not import code
 * that changes later): 029 judges the turn claims of its time so.
 */
test('only src/claims/ and src/util/pid.ts ask whether a pid is alive (isPidAlive, process.kill(pid, 0))', () => {
  const probe = /\bisPidAlive\b|\bprocess\.kill\s*\([^,()]*(?:\([^()]*\))?[^,()]*,\s*0\s*\)/;
  const allowed = (f: string) => f.startsWith('src/claims/') || f === 'src/util/pid.ts' || f.startsWith('src/db/migrations/');
  const asking = sourceFiles('src', 'server', 'commands', 'bin').filter((f) => probe.test(withoutComments(fs.readFileSync(path.join(ROOT, f), 'utf8'))));
  assert.equal(asking.filter((f) => !allowed(f)), []);
  assert.ok(asking.includes('src/util/pid.ts'), 'the probe itself is found (the pattern reads the code)');
});

test.run();

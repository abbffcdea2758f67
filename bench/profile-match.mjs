#!/usr/bin/env node
// Watch-profile matching: 10,000 new documents (realistic author lists: 6
// authors each, a third with ORCID iDs) against 100 profiles (half with an
// ORCID iD, aliases and affiliations), through the incremental pass that runs
// after every execution. Target: under 2 s. Also the cost of the next pass
// when nothing is new. Run after `npm run build`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createContext } = await import(path.join(root, 'dist/src/context.js'));
const { mergeRecords } = await import(path.join(root, 'dist/src/corpus/merge.js'));
const { createProfile } = await import(path.join(root, 'dist/src/profiles/service.js'));
const { matchNewDocuments } = await import(path.join(root, 'dist/src/profiles/match.js'));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-profiles-'));
const ctx = createContext({ env: { SVC_DATA_DIR: path.join(dir, 'data'), SVC_STATE_DIR: path.join(dir, 'state') } });
const GIVEN = ['Ada', 'Alan', 'Grace', 'Hinh', 'Maria', 'Wei', 'Yusuf', 'Priya', 'Olga', 'Kofi', 'Lena', 'Tomás'];
const FAMILY = Array.from({ length: 400 }, (_, i) => `Family${i}`);
const orcid = (n) => {
  const base = `0000000${String(100000000 + n).slice(1)}`.slice(-15);
  let total = 0;
  for (const ch of base) total = (total + Number(ch)) * 2;
  const check = (12 - (total % 11)) % 11;
  const all = `${base}${check === 10 ? 'X' : check}`;
  return `${all.slice(0, 4)}-${all.slice(4, 8)}-${all.slice(8, 12)}-${all.slice(12)}`;
};

for (let p = 0; p < 100; p++) {
  createProfile(ctx, {
    name: `${GIVEN[p % GIVEN.length]} ${FAMILY[p * 3]}`,
    orcid: p % 2 ? orcid(p) : null,
    aliases: [`${GIVEN[p % GIVEN.length][0]}. ${FAMILY[p * 3]}`],
    affiliations: [`University ${p % 20}`],
  });
}

const records = Array.from({ length: 10_000 }, (_, n) => ({
  record: {
    source: 'crossref', nativeId: `B/${n}`, title: `Bench paper ${n} on matters of some length`, doi: `10.9999/p.${n}`,
    authors: Array.from({ length: 6 }, (_, a) => {
      const k = (n * 7 + a * 13) % 400;
      return { name: `${GIVEN[(n + a) % GIVEN.length]} ${FAMILY[k]}`, given: GIVEN[(n + a) % GIVEN.length], family: FAMILY[k], orcid: a % 3 === 0 ? orcid(k % 100) : undefined, affiliations: [`University ${k % 20}`] };
    }),
    ids: {}, categories: [], relations: [], publicationDate: '2025-01-01', datePrecision: 'day',
  },
  rank: n,
}));
for (let i = 0; i < records.length; i += 500) mergeRecords(ctx.db, records.slice(i, i + 500), ctx.nowIso());

const t0 = performance.now();
const result = matchNewDocuments(ctx);
const ms = performance.now() - t0;
const t1 = performance.now();
matchNewDocuments(ctx);
const idleMs = performance.now() - t1;
const byBasis = ctx.db.prepare('SELECT basis, COUNT(*) n FROM profile_matches GROUP BY basis').all();
console.log(`profile matching: ${result.documents} new documents x 100 profiles in ${ms.toFixed(0)} ms (${result.matches} matches: ${byBasis.map((b) => `${b.basis} ${b.n}`).join(', ')}) — target < 2000 ms ${ms < 2000 ? 'OK' : 'MISSED'}`);
console.log(`next pass with nothing new: ${idleMs.toFixed(1)} ms`);
ctx.close?.();
fs.rmSync(dir, { recursive: true, force: true });

#!/usr/bin/env node
// The near-duplicate link scan on a generated corpus (default 1,000,000 documents; target under
// 10 minutes on this 2-core machine), with the same-work rules of issue 33: names compared as
// people, titles without markup and with dropped subtitles, work types. The corpus is messier
// than bench/similarity.mjs's: every document has a type (2% datasets, software or theses), 30%
// of titles have a subtitle, authors are written in several forms, and 1% of documents are
// planted pairs of each of these kinds:
//   same work        preprint and published version (initials on one side, the subtitle dropped,
//                    a year later), one paper from two sources without a DOI on one side;
//   hard negatives   one content word swapped (same authors), the paper's dataset (same title and
//                    authors), a namesake first author with no co-author in common.
// Titles are drawn from a 6,000-word vocabulary (Zipf-like), authors from 40,000 family names.
// Prints the scan time, candidate pairs, links by kind, planted pairs found, false links, memory.
// Run after `npm run build`:  node bench/link-scan.mjs [documents]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createContext } = await import(path.join(root, 'dist/src/context.js'));
const { createLogger } = await import(path.join(root, 'dist/src/log.js'));
const { runLinkScan } = await import(path.join(root, 'dist/src/similarity/link-scan.js'));

const N = Number(process.argv[2] ?? 1_000_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-links-'));
const ctx = createContext({ env: { SVC_DATA_DIR: path.join(dir, 'data'), SVC_STATE_DIR: path.join(dir, 'state') }, log: createLogger({ level: 'error', sink: () => {} }) });

let seed = 42;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const syll = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'xi', 'ze', 'po', 'qu', 'sa', 'di', 'fe', 'go', 'hu', 'ji', 'be', 'co', 'wa'];
const word = (i) => syll[i % 20] + syll[Math.floor(i / 20) % 20] + syll[Math.floor(i / 400) % 20] + (i >= 8000 ? syll[Math.floor(i / 8000) % 20] : '');
const vocab = Array.from({ length: 6000 }, (_, i) => word(i + 401));
const zipf = () => vocab[Math.floor(vocab.length * Math.pow(rand(), 2.2))];
const families = Array.from({ length: 40000 }, (_, i) => `Fam${word(i + 9000)}`);
const givens = Array.from({ length: 400 }, (_, i) => `Giv${word(i + 30000)}`);
const sentence = (n) => Array.from({ length: n }, zipf).join(' ');
const person = () => ({ given: givens[Math.floor(rand() * givens.length)], family: families[Math.floor(rand() * families.length)] });
const FORMS = [
  (p) => ({ name: `${p.given} ${p.family}`, given: p.given, family: p.family }),
  (p) => ({ name: `${p.family}, ${p.given}` }),
  (p) => ({ name: `${p.family} ${p.given[0]}` }),
  (p) => ({ name: `${p.given[0]}. ${p.family}` }),
];
const write = (people, form) => people.map((p) => FORMS[form](p));
const TYPES = ['article', 'article', 'article', 'proceedings', 'review', 'book-chapter', 'report', 'preprint'];

console.log(`generating ${N.toLocaleString()} documents in ${dir}`);
let t0 = Date.now();
const insert = ctx.db.prepare(
  `INSERT INTO documents (id, title, title_key, abstract, authors_json, year, doi, arxiv_id, doc_type, venue, relations_json, first_seen_at_utc, updated_at_utc)
   VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, '[]', 'z', 'z')`,
);
const planted = { same: [], negative: [] };
ctx.db.transaction(() => {
  for (let id = 1; id <= N; ) {
    const main = `${sentence(5 + Math.floor(rand() * 6))} ${id}`.replace(/^./, (c) => c.toUpperCase());
    const title = rand() < 0.3 ? `${main}: ${sentence(3 + Math.floor(rand() * 4))}` : main;
    const people = Array.from({ length: 1 + Math.floor(rand() * 5) }, person);
    const year = 2000 + Math.floor(rand() * 25);
    const roll = rand();
    const add = (i, t, authors, y, doi, arxiv, type, venue) => insert.run(i, t, t.toLowerCase(), JSON.stringify(authors), y, doi, arxiv, type, venue);
    if (roll < 0.01 && id + 1 <= N) {
      const kind = Math.floor(rand() * 5);
      if (kind === 0) {
        // Preprint and published: initials on one side, the subtitle dropped, a year later.
        add(id, `${main}: ${sentence(4)}`, write(people, 0), year, `10.48550/arxiv.${id}`, `b${id}`, 'preprint', 'arXiv');
        add(id + 1, main, write(people, 2), year + 1, `10.9999/j.${id}`, null, 'article', 'Journal');
        planted.same.push([id, id + 1]);
      } else if (kind === 1) {
        // One paper from two sources, the DOI on one side only, names family-first.
        add(id, title, write(people, 0), year, `10.9999/x.${id}`, null, 'article', 'Journal');
        add(id + 1, title, write(people, 1), year, null, null, 'article', null);
        planted.same.push([id, id + 1]);
      } else if (kind === 2) {
        // One content word swapped, the same authors.
        add(id, `${main} mouse liver`, write(people, 0), year, `10.9999/x.${id}`, null, 'article', 'Journal');
        add(id + 1, `${main} rat liver`, write(people, 0), year, `10.9999/y.${id}`, null, 'article', 'Journal');
        planted.negative.push([id, id + 1]);
      } else if (kind === 3) {
        // The paper's dataset.
        add(id, title, write(people, 0), year, `10.9999/x.${id}`, null, 'article', 'Journal');
        add(id + 1, title, write(people, 1), year, `10.5281/zenodo.${id}`, null, 'dataset', 'Zenodo');
        planted.negative.push([id, id + 1]);
      } else {
        // A namesake first author, no co-author in common.
        const others = [people[0], person(), person()];
        add(id, title, write([...people, person()], 0), year, `10.9999/x.${id}`, null, 'article', 'Journal');
        add(id + 1, title, write(others, 3), year, `10.9999/y.${id}`, null, 'article', 'Journal');
        planted.negative.push([id, id + 1]);
      }
      id += 2;
    } else {
      const type = roll < 0.017 ? 'dataset' : roll < 0.024 ? 'software' : roll < 0.03 ? 'thesis' : TYPES[Math.floor(rand() * TYPES.length)];
      add(id, title, write(people, Math.floor(rand() * 4)), year, rand() < 0.8 ? `10.9999/x.${id}` : null, null, type, 'Journal');
      id += 1;
    }
  }
})();
console.log(`  generated in ${((Date.now() - t0) / 1000).toFixed(1)} s (${planted.same.length} planted same-work pairs, ${planted.negative.length} planted look-alikes)`);

t0 = Date.now();
const cpu0 = process.cpuUsage();
const scan = await runLinkScan(ctx, {});
const seconds = (Date.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const links = ctx.db.prepare('SELECT document_a, document_b, kind FROM document_links').all();
const kinds = new Map(links.map((l) => [`${l.document_a}:${l.document_b}`, l.kind]));
const found = planted.same.filter(([a, b]) => kinds.get(`${a}:${b}`) === 'same_work').length;
const falseLinks = planted.negative.filter(([a, b]) => kinds.get(`${a}:${b}`) === 'same_work').length;
const byKind = Object.fromEntries(ctx.db.prepare('SELECT kind, count(*) AS n FROM document_links GROUP BY kind').all().map((r) => [r.kind, r.n]));
console.log(`link scan: ${N.toLocaleString()} documents in ${seconds.toFixed(1)} s (cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; target < 600 s)`);
console.log(`  ${scan.candidates.toLocaleString()} candidate pairs judged, ${scan.links_written.toLocaleString()} links (${JSON.stringify(byKind)})`);
console.log(`  planted same-work pairs linked ${found}/${planted.same.length}; planted look-alikes linked as the same work ${falseLinks}/${planted.negative.length}`);
console.log(`  memory: rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
await ctx.close();
fs.rmSync(dir, { recursive: true, force: true });

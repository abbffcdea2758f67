// What bench/corpus-merge*.mjs share: the build's merge functions, and the records
// they merge, shaped like real ones (the Europe PMC fixture's fields, varied ids and
// titles) in batches of 100, one transaction each as the benches count them. Built
// before any timing: parsing a source's answer is not part of merging it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const load = (file) => import(path.join(root, 'dist/src', file));

/** What the merge benches run (the build's output), and a fixed clock. */
export const { openDatabase } = await load('db/open.js');
export const { mergeRecords } = await load('corpus/merge.js');
export const { flushSearchIndex } = await load('corpus/search-index.js');
export const { startCheckpointer } = await load('db/checkpointer.js');
export const now = () => '2026-11-21T00:00:00.000Z';

export async function benchRecords() {
  const { parseResponse } = await load('sources/europepmc.js');
  const templates = parseResponse(fs.readFileSync(path.join(root, 'test/fixtures/europepmc/search-cancer-lite.json'), 'utf8')).records;
  const record = (n, source) => {
    const t = templates[n % templates.length];
    return {
      ...t,
      source,
      nativeId: `BENCH/${n}`,
      // Lite records carry no abstract; real ones do, and the full-text index pays for it.
      abstract: t.abstract ?? `${t.title}. We report findings from cohort ${n} across several populations, with methods, results and limitations discussed at length for readers. `.repeat(4),
      title: `${t.title} (variant ${n})`,
      doi: `10.9999/bench.${n}`,
      ids: { ...t.ids, pmid: String(90_000_000 + n), pmcid: undefined },
      publicationDate: `20${String(10 + (n % 15)).padStart(2, '0')}-0${1 + (n % 9)}-1${n % 9}`,
      datePrecision: 'day',
    };
  };
  /** Records from..from+count-1 of a source, in merge batches of 100. */
  const batches = (from, count, source) => {
    const out = [];
    for (let i = 0; i < count; i += 100) {
      const batch = [];
      for (let j = i; j < Math.min(count, i + 100); j++) batch.push({ record: record(from + j, source), rank: j - i });
      out.push(batch);
    }
    return out;
  };
  return { batches };
}

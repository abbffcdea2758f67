// The records bench/corpus-merge*.mjs merge: shaped like real ones (the Europe PMC
// fixture's fields, varied ids and titles), in batches of 100, one transaction each
// as the benches count them. Built before any timing: parsing a source's answer is
// not part of merging it.
import fs from 'node:fs';
import path from 'node:path';

export async function benchRecords(root) {
  const { parseResponse } = await import(path.join(root, 'dist/src/sources/europepmc.js'));
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

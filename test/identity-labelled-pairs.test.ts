/**
 * Same work or not, on messy records (issue 33 item 4): the labelled pairs of
 * test/fixtures/identity-pairs (its README says how each category is built
 * and labelled) read through each source's own parser, merged into a corpus
 * as runs merge them, then the link scan. A pair is called the same work when
 * both records ended in one document or the scan linked their documents as
 * same_work (a related_version link is not a claim of the same work).
 * Floors: precision ≥ 0.98 and recall ≥ 0.90 overall, recall ≥ 0.85 in every
 * category of true pairs, a false-link rate ≤ 0.05 in every category of hard
 * negatives, and no dataset, software or thesis record folded into a paper.
 * The figures printed are those in svc-similarity(1).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../src/context.js';
import { mergeRecords } from '../src/corpus/merge.js';
import { runLinkScan } from '../src/similarity/link-scan.js';
import type { NormalizedRecord, ParsedPage } from '../src/sources/types.js';
import { parseResponse as ads } from '../src/sources/ads.js';
import { parseResponse as arxiv } from '../src/sources/arxiv.js';
import { parseResponse as biorxiv } from '../src/sources/biorxiv.js';
import { parseCrossrefWork, parseResponse as crossref } from '../src/sources/crossref.js';
import { parseResponse as dblp } from '../src/sources/dblp.js';
import { parseResponse as doaj } from '../src/sources/doaj.js';
import { parseResponse as europepmc } from '../src/sources/europepmc.js';
import { parseResponse as hal } from '../src/sources/hal.js';
import { parseResponse as ieee } from '../src/sources/ieee.js';
import { parseResponse as inspire } from '../src/sources/inspire.js';
import { parseResponse as medrxiv } from '../src/sources/medrxiv.js';
import { parseResponse as openalex } from '../src/sources/openalex.js';
import { parseResponse as plos } from '../src/sources/plos.js';
import { parseResponse as pubmed } from '../src/sources/pubmed.js';
import { parseResponse as scopus } from '../src/sources/scopus.js';
import { parseResponse as semanticscholar } from '../src/sources/semanticscholar.js';
import { parseResponse as springer } from '../src/sources/springer.js';
import { parseResponse as zenodo } from '../src/sources/zenodo.js';
import { fixture, tempDirs } from './_setup.js';

interface SetRecord {
  key: string;
  source: string;
  /** A real record: the recorded answer and the record's position in what its parser gives. */
  fixture?: string;
  index?: number;
  /** The file holds Crossref's `message` only (read by the per-work parser). */
  message?: boolean;
  /** A derived record: one item of its source's answer. */
  item?: unknown;
}
interface Pair {
  a: string;
  b: string;
  label: boolean;
  category: string;
  note?: string;
}
const set = JSON.parse(fixture('identity-pairs/pairs.json').toString('utf8')) as { rounds: { records: SetRecord[]; pairs: Pair[] }[] };

const PARSE: Record<string, (text: string) => ParsedPage> = {
  ads, arxiv, biorxiv, crossref, dblp, doaj, europepmc, hal, ieee, inspire, medrxiv, openalex, plos, pubmed, scopus, semanticscholar, springer, zenodo,
};
/** Each source's answer around one item, as the source sends it. */
const ANSWER: Record<string, (item: unknown) => unknown> = {
  crossref: (item) => ({ status: 'ok', 'message-type': 'work-list', message: { 'total-results': 1, items: [item] } }),
  europepmc: (item) => ({ hitCount: 1, resultList: { result: [item] } }),
  openalex: (item) => ({ meta: { count: 1 }, results: [item] }),
  dblp: (item) => ({ result: { hits: { '@total': '1', '@sent': '1', hit: [item] } } }),
  zenodo: (item) => ({ hits: { total: 1, hits: [item] }, links: {} }),
  scopus: (item) => ({ 'search-results': { 'opensearch:totalResults': '1', entry: [item] } }),
  hal: (item) => ({ response: { numFound: 1, docs: [item] } }),
  semanticscholar: (item) => ({ total: 1, offset: 0, data: [item] }),
  inspire: (item) => ({ hits: { total: 1, hits: [item] } }),
  ads: (item) => ({ responseHeader: { status: 0 }, response: { numFound: 1, docs: [item] } }),
};

const pages = new Map<string, NormalizedRecord[]>();
function readRecord(r: SetRecord): NormalizedRecord {
  if (r.fixture) {
    if (!pages.has(r.fixture)) {
      const text = fixture(r.fixture).toString('utf8');
      pages.set(r.fixture, r.message ? [parseCrossrefWork(JSON.parse(text))!] : PARSE[r.source]!(text).records);
    }
    return pages.get(r.fixture)![r.index!]!;
  }
  const records = PARSE[r.source]!(JSON.stringify(ANSWER[r.source]!(r.item))).records;
  assert.is(records.length, 1, `${r.source} item ${r.key} reads as one record`);
  return records[0]!;
}

interface Outcome extends Pair {
  round: number;
  same: boolean;
  folded: boolean;
  linked: string | null;
}

let outcomes: Outcome[] = [];

test.before(async () => {
  for (const [n, round] of set.rounds.entries()) {
    const dirs = tempDirs();
    const ctx = createContext({ env: dirs.env });
    try {
      const records = new Map(round.records.map((r) => [r.key, { ...r, record: readRecord(r) }]));
      const real = [...records.values()].filter((r) => r.fixture);
      const derived = [...records.values()].filter((r) => !r.fixture);
      // As runs bring them: one source's answer at a time; every other round the derived records first.
      const batches = n % 2 === 0 ? [real, derived] : [derived, real];
      for (const batch of batches) mergeRecords(ctx.db, batch.map((r, rank) => ({ record: r.record, rank })), ctx.nowIso());
      const scan = await runLinkScan(ctx);
      assert.is(scan.state, 'completed');
      const docOf = ctx.db.prepare('SELECT document_id FROM document_sources WHERE source = ? AND native_id = ?').pluck();
      const link = ctx.db.prepare('SELECT kind FROM document_links WHERE document_a = ? AND document_b = ?').pluck();
      for (const p of round.pairs) {
        const [a, b] = [records.get(p.a)!, records.get(p.b)!];
        const [da, db] = [docOf.get(a.record.source, a.record.nativeId) as number, docOf.get(b.record.source, b.record.nativeId) as number];
        const linked = da === db ? null : ((link.get(Math.min(da, db), Math.max(da, db)) as string | undefined) ?? null);
        outcomes.push({ ...p, round: n, folded: da === db, linked, same: da === db || linked === 'same_work' });
      }
    } finally {
      await ctx.close();
      dirs.cleanup();
    }
  }
});

const pct = (x: number) => x.toFixed(2);

test('the set: at least 500 pairs; true pairs from at least three sources; every kind of hard negative the issue names', () => {
  const pairs = set.rounds.flatMap((r) => r.pairs);
  assert.ok(pairs.length >= 500, `${pairs.length} pairs`);
  const realSources = new Set(set.rounds.flatMap((r) => r.pairs.filter((p) => p.label).map((p) => r.records.find((x) => x.key === p.a)!.source)));
  assert.ok(realSources.size >= 3, [...realSources].join(', '));
  const categories = new Set(pairs.map((p) => `${p.label}:${p.category}`));
  for (const c of ['true:initials', 'true:surname_first', 'true:diacritics_tex', 'true:et_al', 'true:missing_author', 'true:title_markup', 'true:subtitle_dropped', 'true:doi_one_side',
    'false:content_word_swapped', 'false:conference_abstract', 'false:thesis_chapter', 'false:same_surname_initial', 'false:dataset_same_title', 'false:software_same_title']) {
    assert.ok(categories.has(c), c);
  }
});

test('precision ≥ 0.98 and recall ≥ 0.90 overall; recall ≥ 0.85 per category of true pairs; false links ≤ 0.05 per category of hard negatives', () => {
  const tp = outcomes.filter((o) => o.label && o.same).length;
  const fp = outcomes.filter((o) => !o.label && o.same).length;
  const fn = outcomes.filter((o) => o.label && !o.same).length;
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  const rows: string[] = [`overall: ${outcomes.length} pairs, precision ${pct(precision)}, recall ${pct(recall)} (tp ${tp}, fp ${fp}, fn ${fn})`];
  const failures: string[] = [];
  for (const category of [...new Set(outcomes.map((o) => o.category))]) {
    const mine = outcomes.filter((o) => o.category === category);
    const label = mine[0]!.label;
    const rate = mine.filter((o) => o.same).length / mine.length;
    const related = mine.filter((o) => o.linked === 'related_version').length;
    rows.push(`${label ? 'same work   ' : 'hard negative'} ${category.padEnd(28)} ${String(mine.length).padStart(3)} pairs  ${label ? 'recall' : 'false-link rate'} ${pct(rate)}${related ? `  (${related} linked as related versions)` : ''}`);
    if (label && rate < 0.85) failures.push(`${category}: recall ${pct(rate)} (${mine.filter((o) => !o.same).map((o) => `round ${o.round} ${o.a}/${o.b}`).slice(0, 5).join(' ')})`);
    if (!label && rate > 0.05) failures.push(`${category}: false-link rate ${pct(rate)}`);
  }
  console.log(rows.join('\n'));
  if (process.env.SHOW_MISSES) for (const o of outcomes.filter((x) => x.label !== x.same)) console.log('MISS', JSON.stringify(o));
  assert.ok(precision >= 0.98, `precision ${precision}`);
  assert.ok(recall >= 0.9, `recall ${recall}`);
  assert.equal(failures, []);
});

test('no dataset, software or thesis record folded into a paper’s document', () => {
  const folded = outcomes.filter((o) => ['dataset_same_title', 'software_same_title', 'thesis_chapter'].includes(o.category) && o.folded);
  assert.equal(folded.map((o) => `${o.category} ${o.a}/${o.b}`), []);
});

test.run();

/**
 * svc corpus audit (issue 33 item 1): documents that an older svc folded by a
 * title alone (a data package and a code record under a paper's title, one of
 * them bringing the DOI the paper's other record lacked) are split: the
 * document keeps its id for the paper, the others get new ids with their
 * provenance whole, and what names the document (reading queue, profile
 * matches, Library links, links) stays with the paper. The paper is a real
 * PLOS record; the look-alikes are derived from it in their sources' shapes.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext, type Context } from '../src/context.js';
import { joinDocument, mergeRecords, statements } from '../src/corpus/merge.js';
import { provenanceOf } from '../src/corpus/repo.js';
import { parseResponse as parseDblp } from '../src/sources/dblp.js';
import { parseResponse as parseEuropePmc } from '../src/sources/europepmc.js';
import { parseResponse as parsePlos } from '../src/sources/plos.js';
import { parseResponse as parseZenodo } from '../src/sources/zenodo.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { fixture, runCli, tempDirs, type TempDirs } from './_setup.js';

const FIRST_SEEN = '2026-01-05T10:00:00.000Z';
const plos = parsePlos(fixture('plos/search-alcohol-rows5-hl-abstract.json').toString('utf8')).records[0]!;
const year = Number(plos.publicationDate!.slice(0, 4));
const names = plos.authors.map((a) => a.name.replace(/ Jr\.$/, ''));
// The paper as Europe PMC lists it: no DOI, authors as family and initials.
const paper = parseEuropePmc(JSON.stringify({ hitCount: 1, resultList: { result: [{
  id: '31821372', source: 'MED', pmid: '31821372', title: plos.title, pubYear: String(year), journalTitle: 'PLoS One', pubType: 'research-article; journal article',
  authorString: names.map((n) => `${n.split(' ').pop()} ${n.split(' ').slice(0, -1).map((w) => w[0]).join('')}`).join(', '),
}] } })).records[0]!;
const dataset = parseZenodo(JSON.stringify({ hits: { total: 1, hits: [{ id: 3456789, doi: '10.5281/zenodo.3456789', metadata: {
  title: plos.title, publication_date: `${year}-11-02`, resource_type: { type: 'dataset' }, creators: names.map((n) => ({ name: n })),
} }] } })).records[0]!;
const code = parseDblp(JSON.stringify({ result: { hits: { '@total': '1', hit: [{ info: {
  authors: { author: names.map((text) => ({ text })) }, title: `${plos.title}.`, year: String(year), type: 'Data and Artifacts', key: 'data/10/JimenezSCK19', ee: 'https://github.com/example/burkholderia',
} }] } } })).records[0]!;

let dirs: TempDirs;
let ctx: Context;
let docId: number;
let other: number;

/** What an svc before the confirmed title match did with a record whose title, year and first author's family matched: joined it. */
function foldAsBefore(record: NormalizedRecord, into: number) {
  joinDocument(statements(ctx.db), into, record, FIRST_SEEN);
  ctx.db.prepare('INSERT INTO document_sources (document_id, source, native_id, first_seen_at_utc, last_seen_at_utc, record_json) VALUES (?, ?, ?, ?, ?, ?)')
    .run(into, record.source, record.nativeId, FIRST_SEEN, '2026-02-01T00:00:00.000Z', JSON.stringify(record));
  // A source's first record on a document is counted, as mergeRecords counts it.
  statements(ctx.db).addCounts.run('sources', JSON.stringify({ [record.source]: 1 }));
}

test.before(() => {
  dirs = tempDirs();
  ctx = createContext({ env: dirs.env });
  [docId, other] = mergeRecords(ctx.db, [{ record: paper, rank: 0 }, { record: parsePlos(fixture('plos/search-alcohol-rows5-hl-abstract.json').toString('utf8')).records[1]!, rank: 1 }], FIRST_SEEN).map((r) => r.documentId) as [number, number];
  ctx.db.transaction(() => {
    foldAsBefore(dataset, docId);
    foldAsBefore(code, docId);
  })();
  const now = FIRST_SEEN;
  ctx.db.prepare('INSERT INTO reading_queue (document_id, saved_at_utc, updated_at_utc) VALUES (?, ?, ?)').run(docId, now, now);
  const profile = ctx.db.prepare("INSERT INTO watch_profiles (kind, name, created_at_utc, updated_at_utc) VALUES ('person', 'Victor Jimenez', ?, ?)").run(now, now).lastInsertRowid;
  ctx.db.prepare("INSERT INTO profile_matches (profile_id, document_id, basis, matched_author, evidence, matched_at_utc) VALUES (?, ?, 'name_only', 'Victor M. Jimenez', '{}', ?)").run(profile, docId, now);
  const vault = '0b0c0d0e-0f10-4111-8213-141516171819';
  ctx.db.prepare('INSERT INTO library_vaults (id, vault_id, root_path, label, created_at_utc) VALUES (1, ?, ?, ?, ?)').run(vault, `${dirs.root}/svc-library-${vault}`, 'Lab library', now);
  ctx.db.prepare(`INSERT INTO library_files (id, file_id, version_id, vault_id, original_name, name_fold, format, media_type, byte_size, sha256, relative_path, imported_at_utc)
    VALUES (1, '1a1b1c1d-1e1f-4021-8223-242526272829', '2a2b2c2d-2e2f-4031-8233-343536373839', ?, 'paper.pdf', 'paper.pdf', 'pdf', 'application/pdf', 1, ?, 'files/x.pdf', ?)`).run(vault, '0'.repeat(64), now);
  ctx.db.prepare("INSERT INTO library_paper_links (file_row, document_id, basis, linked_at_utc) VALUES (1, ?, 'link', ?)").run(docId, now);
  ctx.db.prepare("INSERT INTO document_links (document_a, document_b, method, score, evidence_json, created_at_utc) VALUES (?, ?, 'title_variant', 0.9, '{}', ?)").run(Math.min(docId, other), Math.max(docId, other), now);
  const execution = ctx.db.prepare("INSERT INTO executions (type, status, query, repositories_json, parameters_json, started_at_utc) VALUES ('sweep', 'completed', 'burkholderia', '[]', '{}', ?)").run(now).lastInsertRowid;
  for (const source of ['europepmc', 'zenodo', 'dblp']) ctx.db.prepare('INSERT INTO execution_documents (execution_id, document_id, source, rank, is_new) VALUES (?, ?, ?, 0, 1)').run(execution, docId, source);
});
test.after(async () => {
  await ctx.close();
  dirs.cleanup();
});

const row = (id: number) => ctx.db.prepare('SELECT id, title, doi, doc_type, year FROM documents WHERE id = ?').get(id) as { id: number; title: string; doi: string | null; doc_type: string | null; year: number } | undefined;

test('the folded document as an older svc left it: the paper holds the dataset’s DOI and three sources', () => {
  assert.is(row(docId)!.doi, '10.5281/zenodo.3456789');
  assert.is(provenanceOf(ctx.db, docId).length, 3);
});

test('--dry-run says what it would split and changes nothing', async () => {
  const r = await runCli(['corpus', 'audit', '--dry-run', '--json'], { env: dirs.env });
  assert.is(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal([report.dry_run, report.checked, report.records_moved], [true, 1, 2]);
  assert.equal(report.splits[0].split_off.map((g: any) => [g.document_id, g.class, g.records[0].source]), [[null, 'dataset', 'zenodo'], [null, 'software', 'dblp']]);
  assert.is(provenanceOf(ctx.db, docId).length, 3);
});

test('the audit splits them: the paper keeps its id, its queue entry, profile match, Library link and links; the dataset and the code get new documents with their provenance and their run', async () => {
  const r = await runCli(['corpus', 'audit'], { env: dirs.env });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /Checked 1 documents with more than one record; split 1, 2 records moved to new documents\./);
  assert.match(r.stdout, new RegExp(`Document ${docId} keeps the paper ".*": europepmc MED/31821372 \\(article\\)`));
  assert.match(r.stdout, /new document \d+, a dataset: zenodo 3456789 \(dataset\)\n {2}new document \d+, a software: dblp data\/10\/JimenezSCK19 \(software\)/);

  const kept = row(docId)!;
  assert.equal([kept.doc_type, kept.doi], ['article', null], 'described by its own record again: the dataset’s DOI left with the dataset');
  assert.equal(provenanceOf(ctx.db, docId).map((p) => p.source), ['europepmc']);
  const split = ctx.db.prepare('SELECT id FROM documents WHERE id NOT IN (?, ?) ORDER BY id').pluck().all(docId, other) as number[];
  assert.equal(split.map((id) => [row(id)!.doc_type, row(id)!.doi]), [['dataset', '10.5281/zenodo.3456789'], ['software', null]]);
  const moved = provenanceOf(ctx.db, split[0]!)[0]!;
  assert.equal([moved.source, moved.native_id, moved.first_seen_at_utc, moved.last_seen_at_utc, moved.record.title], ['zenodo', '3456789', FIRST_SEEN, '2026-02-01T00:00:00.000Z', dataset.title], 'provenance whole');

  assert.is(ctx.db.prepare('SELECT count(*) FROM reading_queue WHERE document_id = ?').pluck().get(docId), 1);
  assert.is(ctx.db.prepare('SELECT count(*) FROM profile_matches WHERE document_id = ?').pluck().get(docId), 1);
  assert.is(ctx.db.prepare('SELECT count(*) FROM document_links WHERE ? IN (document_a, document_b)').pluck().get(docId), 1);
  assert.is(ctx.db.prepare('SELECT count(*) FROM library_paper_links WHERE document_id = ?').pluck().get(docId), 1);
  assert.equal(ctx.db.prepare('SELECT document_id, source FROM execution_documents ORDER BY document_id').all(), [
    { document_id: docId, source: 'europepmc' }, { document_id: split[0], source: 'zenodo' }, { document_id: split[1], source: 'dblp' },
  ]);
  assert.equal(ctx.db.pragma('foreign_key_check'), []);
  const counts = ctx.db.prepare("SELECT value, count FROM explorer_facet_counts WHERE facet = 'sources' ORDER BY value").all();
  assert.equal(counts, [{ value: 'dblp', count: 1 }, { value: 'europepmc', count: 1 }, { value: 'plos', count: 1 }, { value: 'zenodo', count: 1 }]);
  assert.equal(ctx.db.prepare("SELECT value, count FROM explorer_facet_counts WHERE facet = 'years' AND count <> 0 ORDER BY value").all(),
    ctx.db.prepare('SELECT CAST(year AS TEXT) AS value, count(*) AS count FROM documents GROUP BY year ORDER BY 1').all(), 'the years facet counts the new documents');
});

test('a second audit finds nothing to split', async () => {
  const r = await runCli(['corpus', 'audit'], { env: dirs.env });
  assert.match(r.stdout, /each holds one work; nothing to split/);
});

test.run();

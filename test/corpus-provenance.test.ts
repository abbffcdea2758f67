/**
 * Provenance records stored as merge patches against their document (migration 32,
 * corpus/provenance-record.ts): every reader gets each source's record back exactly as it was
 * merged (JSON.parse-equal to the record's own JSON) after inserts, later sightings that
 * change the document, folds, a lifecycle retraction, deletes, backup and restore, and an
 * upgrade of rows stored whole before.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { mergeRecords } from '../src/corpus/merge.js';
import { provenanceOf } from '../src/corpus/repo.js';
import { sourceRecordTexts } from '../src/profiles/repo.js';
import { stageRestore } from '../src/admin/restore/stage.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { openDatabase, type Database } from '../src/db/open.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { restart } from './_admin.js';
import { makeRecord, withDatabase as withNewDatabase } from './_corpus.js';
import { buildOldDatabase } from './_old-schema.js';
import { startTestServer, tempDirs } from './_setup.js';

const NOW = '2026-11-21T00:00:00.000Z';
const asJson = (record: unknown) => JSON.parse(JSON.stringify(record)) as unknown;

const withDatabase = (run: (db: Database) => void) => withNewDatabase(NOW, run);

/** What the corpus must give back: the last record merged per source and native id. */
class Expected {
  records = new Map<string, unknown>();
  merge(db: Database, records: NormalizedRecord[]): number[] {
    const ids = mergeRecords(db, records.map((record, rank) => ({ record, rank })), NOW).map((r) => r.documentId);
    for (const r of records) this.records.set(`${r.source} ${r.nativeId}`, asJson(r));
    return ids;
  }
  /** Every provenance row, through both readers, against what was merged. */
  check(db: Database, label: string): void {
    const seen = new Map<string, unknown>();
    for (const id of db.prepare('SELECT id FROM documents ORDER BY id').pluck().all() as number[]) {
      const texts = new Map(sourceRecordTexts(db, id).map((r) => [`${r.source} ${(JSON.parse(r.record_json) as NormalizedRecord).nativeId}`, JSON.parse(r.record_json)]));
      for (const row of provenanceOf(db, id)) {
        const key = `${row.source} ${row.native_id}`;
        assert.equal(row.record, this.records.get(key), `${label}: ${key} on document ${id}`);
        assert.equal(texts.get(key), row.record, `${label}: ${key} read for profile matching`);
        seen.set(key, row.record);
      }
    }
    assert.equal([...seen.keys()].sort(), [...this.records.keys()].sort(), `${label}: every record has its row`);
  }
}

const stored = (db: Database) =>
  db.prepare('SELECT source, native_id, record_base, document_id, length(record_json) AS bytes FROM document_sources ORDER BY id').all() as {
    source: string;
    native_id: string;
    record_base: number | null;
    document_id: number;
    bytes: number;
  }[];

const LONG_ABSTRACT = 'We measured things carefully over a long time in many places. '.repeat(20);

test('a first sighting is stored as a small patch against its new document and read back exactly, whatever its shape', () => {
  withDatabase((db) => {
    const expected = new Expected();
    const records: NormalizedRecord[] = [
      makeRecord(1, { abstract: LONG_ABSTRACT, authors: [{ name: 'Ada Lovelace', given: 'Ada', family: 'Lovelace', orcid: '0000-0002-1825-0097', affiliations: ['Analytical Engine Society'] }] }),
      makeRecord(2, { abstract: undefined, openAccess: true, isRetracted: true, license: 'CC-BY-4.0', venue: 'Journal of Tests', type: 'journal-article' }),
      makeRecord(3, { openAccess: false, isRetracted: false, ids: { pmid: '123', pmcid: undefined, openalex: 'W1' }, categories: ['Ecology', 'Ecology'] }),
      makeRecord(4, { relations: [{ kind: 'preprint_of', doi: '10.1/x', label: 'published' }], landingUrl: 'https://example.org/4', pdfUrl: 'https://example.org/4.pdf' }),
      // Keys the document does not hold, an object among them; a null inside an array is kept as it is.
      { ...makeRecord(5), citedBy: 7, extra: { nested: { deep: ['a', null] } } } as NormalizedRecord,
      // A title a text column would not hold exactly (a lone surrogate): it goes into the patch.
      makeRecord(6, { title: 'Broken \ud800 surrogate in a title of some length', abstract: 'x\u0000y' }),
      makeRecord(7, { doi: undefined, publicationDate: undefined, datePrecision: undefined, title: 'Short' }),
    ];
    expected.merge(db, records);
    expected.check(db, 'inserted');
    const rows = stored(db);
    assert.ok(rows.every((r) => r.record_base === r.document_id), 'all stored as patches');
    assert.ok(rows[0]!.bytes < 200, `a record's patch holds what the document does not (${rows[0]!.bytes} bytes)`);

    // A null the document holds as null needs no patch; one it does not (a patch's null removes) is stored whole.
    const nulls = [{ ...makeRecord(8), venue: null }, { ...makeRecord(9), extra: { a: null } }, { ...makeRecord(10), ids: { pmid: null } }] as unknown as NormalizedRecord[];
    const [, whole] = expected.merge(db, nulls);
    expected.check(db, 'with nulls');
    assert.equal(stored(db).slice(-3).map((r) => r.record_base), [whole! - 1, null, whole! + 1]);
    expected.merge(db, [{ ...makeRecord(2, { abstract: LONG_ABSTRACT }), nativeId: 'other', venue: null } as unknown as NormalizedRecord]);
    expected.check(db, 'a null where the document has a value');
    assert.is(stored(db).at(-1)!.record_base, null);
    // A later sighting fills the abstract with a string the column does not keep exactly.
    expected.merge(db, [makeRecord(20, { abstract: undefined }), makeRecord(20, { nativeId: 'again', source: 'openalex', abstract: 'Lone \udc00 surrogate.' })]);
    expected.check(db, 'a joined string with a lone surrogate');
  });
});

test('values JSON writes other than as they are (NaN, Infinity, toJSON, a key named __proto__) read back as JSON.stringify wrote them', () => {
  withDatabase((db) => {
    const expected = new Expected();
    // NaN and Infinity are written as null: in an object a patch's null would remove the key.
    const numbers = { ...makeRecord(1), extra: { count: NaN, ratio: Infinity, kept: 1 }, citedBy: NaN } as unknown as NormalizedRecord;
    // An object with toJSON (a Date-like value) is written as what toJSON answers, here with a null in it.
    const converted = { ...makeRecord(2), extra: { toJSON: () => ({ a: null }) } } as unknown as NormalizedRecord;
    // Keys named __proto__ (JSON.parse makes them own keys): assigned to a plain object they would set its prototype instead.
    const proto = { ...JSON.parse('{"__proto__":{"a":1}}'), ...makeRecord(4), ids: JSON.parse('{"__proto__":"P1","pmid":"41"}') } as NormalizedRecord;
    const [, , protoDoc] = expected.merge(db, [numbers, converted, proto]);
    expected.check(db, 'first sightings');
    // Joined to the document whose ids hold __proto__: the patch must remove that key for this record.
    expected.merge(db, [makeRecord(4, { source: 'openalex', nativeId: 'W4', ids: { openalex: 'W4' } })]);
    expected.check(db, 'a record joined to a document holding __proto__');
    assert.is(stored(db).at(-1)!.document_id, protoDoc);
  });
});

test('a later sighting that changes the document leaves the earlier records exact (written out whole first); unchanged documents keep patches', () => {
  withDatabase((db) => {
    const expected = new Expected();
    const [id] = expected.merge(db, [makeRecord(1, { source: 'europepmc', nativeId: 'PMC1', abstract: undefined, venue: undefined, type: 'preprint' })]);
    // The same work from Crossref, published: title, venue, type, abstract, an ORCID and ids change on the document.
    expected.merge(db, [
      makeRecord(1, {
        nativeId: '10.5555/test.1',
        title: 'Paper number 1 about things, published',
        venue: 'Journal of Tests',
        type: 'journal-article',
        abstract: LONG_ABSTRACT,
        authors: [{ name: 'Author 1', orcid: '0000-0001-0000-0001' }],
        ids: { pmid: '99' },
        categories: ['Physics'],
      }),
    ]);
    expected.check(db, 'after the join');
    const rows = stored(db);
    assert.is(rows[0]!.record_base, null, 'the first record was written out before the document changed');
    assert.is(rows[1]!.record_base, id, 'the second is a patch against the document as it now stands');
    // Seen again by the same source with other content: its row holds the new record.
    expected.merge(db, [makeRecord(1, { source: 'europepmc', nativeId: 'PMC1', abstract: 'Now with an abstract.', categories: ['Biology'] })]);
    expected.check(db, 'after a changed re-sighting');
    // Seen again unchanged: nothing on the document changes, the rows stay patches.
    expected.merge(db, [makeRecord(1, { nativeId: '10.5555/test.1', title: 'Paper number 1 about things, published', venue: 'Journal of Tests', type: 'journal-article', abstract: LONG_ABSTRACT, authors: [{ name: 'Author 1', orcid: '0000-0001-0000-0001' }], ids: { pmid: '99' }, categories: ['Physics'] })]);
    expected.check(db, 'after an unchanged re-sighting');
    // A lifecycle retraction (an update by another writer) changes a described column.
    db.prepare('UPDATE documents SET is_retracted = 1 WHERE id = ?').run(id);
    expected.check(db, 'after a retraction');
    assert.ok(stored(db).every((r) => r.record_base === null || r.record_base === r.document_id));
  });
});

test('folding two documents keeps every record exact, in one batch and across batches', () => {
  withDatabase((db) => {
    const expected = new Expected();
    const [byDoi] = expected.merge(db, [makeRecord(1, { source: 'crossref', nativeId: 'c1', ids: {} })]);
    const [byArxiv] = expected.merge(db, [makeRecord(2, { source: 'arxiv', nativeId: 'a1', doi: undefined, ids: { arxiv: '2301.00001' }, type: 'preprint', title: 'Paper number 1 about things (preprint)' })]);
    assert.is.not(byDoi, byArxiv);
    // A record naming both: the arXiv document is folded into the older one, its provenance moved.
    const [kept] = expected.merge(db, [makeRecord(3, { source: 'openalex', nativeId: 'W3', doi: '10.5555/test.1', ids: { arxiv: '2301.00001', openalex: 'W3' } })]);
    assert.is(kept, byDoi);
    assert.is(db.prepare('SELECT count(*) FROM documents').pluck().get(), 1);
    expected.check(db, 'after a fold');
    // In one batch: two new works, then a record that folds them.
    expected.merge(db, [
      makeRecord(10, { source: 'crossref', nativeId: 'c10' }),
      makeRecord(11, { source: 'arxiv', nativeId: 'a11', doi: undefined, ids: { arxiv: '2301.00011' } }),
      makeRecord(12, { source: 'openalex', nativeId: 'W12', doi: '10.5555/test.10', ids: { arxiv: '2301.00011' } }),
    ]);
    expected.check(db, 'after a fold within a batch');
    assert.ok(stored(db).every((r) => r.record_base === null || r.record_base === r.document_id), 'no row is a patch against another document');
  });
});

test('deleting a document takes its provenance; many random sightings from four sources all read back exactly', () => {
  withDatabase((db) => {
    const expected = new Expected();
    const [gone] = expected.merge(db, [makeRecord(1)]);
    db.prepare('DELETE FROM documents WHERE id = ?').run(gone);
    expected.records.clear();
    assert.is(db.prepare('SELECT count(*) FROM document_sources').pluck().get(), 0);
    // Deterministic pseudo-random sightings: four sources, works sharing DOIs and arXiv ids, changing fields.
    let seed = 7; // mulberry32
    const rand = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) % n;
    };
    const sources = ['crossref', 'arxiv', 'openalex', 'europepmc'];
    for (let batch = 0; batch < 40; batch++) {
      const records: NormalizedRecord[] = [];
      for (let i = 0; i < 10; i++) {
        const work = rand(30);
        const source = sources[rand(4)]!;
        records.push(
          makeRecord(work, {
            source,
            nativeId: `${source}-${work}-${rand(2)}`,
            doi: rand(3) === 0 ? undefined : `10.5555/test.${work}`,
            ids: rand(2) ? { arxiv: `2301.${String(work).padStart(5, '0')}` } : { pmid: String(1000 + work) },
            abstract: rand(3) === 0 ? undefined : `Abstract ${rand(5)} of ${work}.`,
            venue: rand(2) ? 'Journal of Tests' : undefined,
            type: rand(3) === 0 ? 'preprint' : 'journal-article',
            openAccess: rand(3) === 0 ? undefined : rand(2) === 0,
            categories: rand(2) ? ['Ecology'] : ['Ecology', `C${rand(3)}`],
            authors: [{ name: `Author ${work % 5}`, ...(rand(2) ? { orcid: `0000-0000-0000-${String(work).padStart(4, '0')}` } : {}) }],
          }),
        );
      }
      expected.merge(db, records);
      if (batch % 10 === 9) db.prepare('UPDATE documents SET is_retracted = 1 WHERE id = (SELECT min(id) FROM documents WHERE is_retracted = 0)').run();
      expected.check(db, `batch ${batch}`);
    }
    const rows = stored(db);
    assert.ok(rows.every((r) => r.record_base === null || r.record_base === r.document_id));
    assert.ok(rows.length > 150 && rows.filter((r) => r.record_base === null).length > 20 && rows.filter((r) => r.record_base !== null).length > 20, 'both kinds of rows were read back');
  });
});

test('rows stored whole before migration 32 read back unchanged and stay whole when their document changes', () => {
  const dirs = tempDirs();
  const file = path.join(dirs.dataDir, 'svc.db');
  const old = buildOldDatabase(file, MIGRATIONS.map((m) => m.version).filter((v) => v < 32));
  const record = makeRecord(1, { source: 'europepmc', nativeId: 'PMC1', abstract: undefined });
  mergeRecordsAsBefore(old, record);
  old.close();
  const { db } = openDatabase(file, () => NOW);
  try {
    assert.equal(stored(db).map((r) => r.record_base), [null]);
    assert.equal(provenanceOf(db, 1)[0]!.record, asJson(record));
    mergeRecords(db, [{ record: makeRecord(1, { abstract: LONG_ABSTRACT, nativeId: '10.5555/test.1' }), rank: 0 }], NOW);
    assert.equal(provenanceOf(db, 1).map((r) => r.record), [asJson(record), asJson(makeRecord(1, { abstract: LONG_ABSTRACT, nativeId: '10.5555/test.1' }))]);
    assert.is(db.prepare("SELECT record_json FROM document_sources WHERE source = 'europepmc'").pluck().get(), JSON.stringify(record), 'the old row is untouched');
  } finally {
    db.close();
    dirs.cleanup();
  }
});

/** A document and its provenance row as merge wrote them before migration 32 (the record whole). */
function mergeRecordsAsBefore(db: Database, r: NormalizedRecord): void {
  db.prepare(
    `INSERT INTO documents (id, title, title_key, abstract, authors_json, authors_text, first_author_key, publication_date, date_precision, sort_date, year, doi, ids_json,
       categories_json, relations_json, meta_source, first_seen_at_utc, updated_at_utc)
     VALUES (1, ?, 'paper number 1 about things', NULL, ?, 'Author 1', 'author 1', ?, 'day', ?, 2020, ?, '{}', '[]', '[]', ?, ?, ?)`,
  ).run(r.title, JSON.stringify(r.authors), r.publicationDate, r.publicationDate, r.doi, r.source, NOW, NOW);
  db.prepare('INSERT INTO document_sources (document_id, source, native_id, first_seen_at_utc, last_seen_at_utc, record_json) VALUES (1, ?, ?, ?, ?, ?)').run(
    r.source, r.nativeId, NOW, NOW, JSON.stringify(r),
  );
}

test('a backup restored gives every record back exactly', async () => {
  const t = await startTestServer();
  let next: Awaited<ReturnType<typeof restart>> | undefined;
  try {
    const expected = new Expected();
    expected.merge(t.ctx.db, [makeRecord(1, { source: 'europepmc', nativeId: 'PMC1', abstract: undefined }), makeRecord(2, { abstract: LONG_ABSTRACT })]);
    expected.merge(t.ctx.db, [makeRecord(1, { nativeId: '10.5555/test.1', abstract: LONG_ABSTRACT })]);
    assert.ok(stored(t.ctx.db).some((r) => r.record_base !== null), 'the bundle holds patched rows');
    const backup = await t.request('POST', '/api/backup', { body: {} });
    assert.is(backup.status, 201, backup.text);
    // Changed after the backup: the restore must bring back the records as they were then.
    const before = new Map(expected.records);
    expected.merge(t.ctx.db, [makeRecord(2, { abstract: 'Changed later.', nativeId: 'native-2' })]);
    await stageRestore(t.ctx, { path: backup.json().path, confirm: 'restore', vault_parent: t.dirs.root, accept_fk_violations: false });
    next = await restart(t);
    expected.records = before;
    expected.check(next.ctx.db, 'restored');
  } finally {
    await next?.server.close();
    await next?.ctx.close();
    await t.close();
  }
});

test.run();

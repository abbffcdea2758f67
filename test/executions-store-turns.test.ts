/**
 * A run stores a page of collaboration papers (thousands of authors each)
 * without holding the event loop: no turn of the main thread near what one
 * transaction holds it for while 100 papers of 2,000 authors are merged,
 * linked to the run and indexed (before: the page's one transaction took 1.5 s, its index flush
 * 1.5 to 4 s more). And the corpus comes out as it did when the page was one
 * transaction and one flush: the same documents, provenance, facet rows and
 * counts, full-text index and links to the run.
 */
import * as assert from 'uvu/assert';
import type { Database } from 'better-sqlite3';
import { createContext, type Context } from '../src/context.js';
import { mergeRecords } from '../src/corpus/merge.js';
import { flushSearchIndex } from '../src/corpus/search-index.js';
import { insertExecution, linkDocuments } from '../src/executions/repo.js';
import type { RunSpec } from '../src/executions/request.js';
import { storeRecords } from '../src/executions/store-records.js';
import { silentLogger } from '../src/log.js';
import { author, makeRecord } from '../src/sources/normalize.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { seed } from './_corpus.js';
import { tempDirs } from './_setup.js';
import { largestTurn, turnTest } from './_turns.js';

const test = turnTest();

const spec: RunSpec = {
  type: 'dive', repositories: ['arxiv'], query: 'collaboration', keywords: [], dateFrom: null, dateTo: null, maxResults: 100, aiEnabled: false, aiSettings: null,
  requestId: null, savedConfigurationId: null, routineId: null, author: null,
};
const FIXED = new Date('2024-05-01T12:00:00.000Z');

/** A context on temp dirs with its clock stopped, and a run to store into. */
function withRun(run: (ctx: Context, executionId: number) => Promise<void>): Promise<void> {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: silentLogger, clock: { now: () => FIXED } });
  const executionId = insertExecution(ctx.db, spec, { pid: process.pid, runtimeId: 'test', role: 'cli' }, ctx.nowIso(), null, null);
  return run(ctx, executionId).finally(async () => {
    await ctx.close();
    dirs.cleanup();
  });
}

/** An arXiv collaboration paper signed by `authors` people, each with an affiliation. */
function paper(n: number, authors: number, fields: Partial<NormalizedRecord> = {}): NormalizedRecord {
  return makeRecord({
    source: 'arxiv',
    nativeId: `2401.${10000 + n}`,
    title: `Measurement ${n} of a collaboration`,
    authors: Array.from({ length: authors }, (_, a) => author(`Given${a} Family${a}-${n % 7}`, { affiliations: [`Institute ${a % 200}`] })),
    ids: { arxiv: `2401.${10000 + n}` },
    categories: ['hep-ex', `hep-ph.${n % 3}`],
    publicationDate: `2024-01-${String(1 + (n % 28)).padStart(2, '0')}`,
    datePrecision: 'day',
    type: 'preprint',
    ...fields,
  });
}

/**
 * The aim is no turn over 100 ms, which held here at load 8; on this shared 2-core machine at load 13
 * to 15 the same work took up to 210 ms of CPU in one turn, and CI's machine may be slower still. So the
 * bound is relative, measured on the machine that runs the test: the largest turn is under a third of
 * what the page's one transaction (the store step as it was, without its flush) holds the loop for.
 * Here that transaction took 0.95 to 1.5 s; the sliced store's largest turn 60 to 210 ms.
 */
const SHARE_OF_ONE_TRANSACTION = 1 / 3;

test('a page of 100 papers of 2,000 authors is merged, linked and indexed with no turn of the event loop over a third of what one transaction holds it for', async () => {
  const page = Array.from({ length: 100 }, (_, n) => paper(n, 2000));
  let sliced = 0;
  await withRun(async (ctx, executionId) => {
    const { result, ms } = await largestTurn(() => storeRecords(ctx, executionId, 'arxiv', page, 0));
    sliced = ms;
    assert.is(result.length, 100);
    assert.ok(result.every((m) => m.isNew));
    assert.is(ctx.db.prepare('SELECT count(*) FROM execution_documents WHERE execution_id = ?').pluck().get(executionId), 100);
    assert.is(ctx.db.prepare('SELECT count(*) FROM document_authors').pluck().get(), 200_000, 'every author is a facet row');
    assert.is(ctx.db.prepare('SELECT count(*) FROM documents_fts_pending').pluck().get(), 0, 'the page is indexed');
  });
  await withRun(async (ctx, executionId) => {
    const { ms: whole } = await largestTurn(async () =>
      ctx.db.transaction(() => {
        const answers = mergeRecords(ctx.db, page.map((record, rank) => ({ record, rank })), ctx.nowIso());
        linkDocuments(ctx.db, executionId, 'arxiv', answers.map((m, rank) => ({ ...m, rank })));
      })(),
    );
    assert.ok(sliced < whole * SHARE_OF_ONE_TRANSACTION, `the largest turn used ${sliced.toFixed(0)} ms of the main thread's CPU; one transaction ${whole.toFixed(0)} ms`);
  });
});

/** The corpus and the run's links, table by table, as comparable rows. */
function corpusOf(db: Database): Record<string, unknown[]> {
  const all = (sql: string) => db.prepare(sql).all();
  return {
    documents: all('SELECT * FROM documents ORDER BY id'),
    provenance: all('SELECT * FROM document_sources ORDER BY id'),
    authors: all('SELECT * FROM document_authors ORDER BY document_id, position'),
    categories: all('SELECT * FROM document_categories ORDER BY document_id, category'),
    counts: all('SELECT * FROM explorer_facet_counts ORDER BY facet, value'),
    fts: all('SELECT rowid, title, abstract, authors_text FROM documents_fts ORDER BY rowid'),
    ftsMatch: all(`SELECT rowid FROM documents_fts WHERE documents_fts MATCH 'family1999' ORDER BY rowid`),
    pending: all('SELECT id FROM documents_fts_pending UNION ALL SELECT id FROM document_facets_pending'),
    links: all('SELECT * FROM execution_documents ORDER BY execution_id, source, rank'),
  };
}

/**
 * What the corpus held before the page: an article two of the page's preprints are versions of, and
 * two documents one of the page's records proves to be one work (its DOI names one, its arXiv id the
 * other), one of them made by the page itself in an earlier transaction.
 */
function seedCorpus(ctx: Context): void {
  seed(ctx, [
    makeRecord({ source: 'crossref', nativeId: '10.1000/article.5', title: 'Measurement 5 of a collaboration', authors: [author('Given0 Family0-5')], doi: '10.1000/article.5', type: 'journal-article', venue: 'Physical Review D', publicationDate: '2024-03', datePrecision: 'month' }),
    makeRecord({ source: 'inspire', nativeId: 'inspire-12', title: 'Measurement 12 of a collaboration', authors: [], ids: { arxiv: '2401.10012' }, publicationDate: '2024' , datePrecision: 'year' }),
    makeRecord({ source: 'crossref', nativeId: '10.1000/article.40', title: 'Measurement 40 of a collaboration', authors: [author('Given0 Family0-5')], doi: '10.1000/article.40', type: 'journal-article', venue: 'JHEP' }),
  ]);
}

/** Collaboration papers of 1 to 2,999 authors, some joining the seeded documents, one folding two documents into one. */
function mixedPage(): NormalizedRecord[] {
  const page = Array.from({ length: 60 }, (_, n) => paper(n, (n * 757) % 3000 || 1));
  page[5] = paper(5, 1200, { doi: '10.1000/article.5' });
  page[12] = paper(12, 2500, { doi: '10.1000/collab.12' });
  // Names the document page[3] made (its arXiv id) and the seeded article 40 (its DOI): one work.
  page[47] = paper(47, 900, { ids: { arxiv: '2401.10003' }, doi: '10.1000/article.40' });
  page.push(paper(7, 2100)); // the same paper again at the end of the page, as sources sometimes answer
  return page;
}

test('the page stored a few records a transaction gives the corpus and links one transaction and one flush gave', async () => {
  const page = mixedPage();
  let before: Record<string, unknown[]> = {};
  let oneTransaction: Record<string, unknown[]> = {};
  await withRun(async (ctx, executionId) => {
    seedCorpus(ctx);
    before = corpusOf(ctx.db);
    // The store step as it was: the page and its links in one transaction, then one flush.
    ctx.db.transaction(() => {
      const answers = mergeRecords(ctx.db, page.map((record, rank) => ({ record, rank })), ctx.nowIso());
      linkDocuments(ctx.db, executionId, 'arxiv', answers.map((m, rank) => ({ ...m, rank })));
    })();
    flushSearchIndex(ctx.db);
    oneTransaction = corpusOf(ctx.db);
  });
  await withRun(async (ctx, executionId) => {
    seedCorpus(ctx);
    assert.equal(corpusOf(ctx.db), before, 'both start from the same corpus');
    let turns = 0;
    await storeRecords(ctx, executionId, 'arxiv', page, 0, async () => void turns++);
    assert.ok(turns > 20, `stored in ${turns} turns`);
    const sliced = corpusOf(ctx.db);
    for (const table of Object.keys(oneTransaction)) assert.equal(sliced[table], oneTransaction[table], table);
  });
  assert.is(oneTransaction.documents!.length, before.documents!.length + 60 - 4, 'the page made documents, two joined seeded ones, one joined and one was folded away');
});

test.run();

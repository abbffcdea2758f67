/**
 * Conformance audit of watch-profile matching: a basis never claims more than
 * the paper says. Affiliations confirm a name only as whole words the author
 * wrote; a group's name agrees only whole; a paper that later gains a source
 * record is matched again (an ORCID found later upgrades the basis, another
 * person's ORCID removes a name match); an empty page asks nothing.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeRecords } from '../src/corpus/merge.js';
import { makeRecord, author } from '../src/sources/normalize.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { startTestServer, type TestServer } from './_setup.js';

const NOW = '2026-11-20T00:00:00.000Z';
let t: TestServer;

const store = (records: NormalizedRecord[]) => mergeRecords(t.ctx.db, records.map((record, rank) => ({ record, rank })), NOW).map((r) => r.documentId);
const create = async (body: unknown) => (await t.request('POST', '/api/profiles', { body })).json();
const matches = async (id: number, query = '') => (await t.request('GET', `/api/profiles/${id}/matches${query}`)).json();
const paper = (n: string, authors: ReturnType<typeof author>[], extra: Record<string, unknown> = {}) =>
  makeRecord({ source: 'crossref', nativeId: `10.9/${n}`, title: `A paper about ${n} in some depth`, authors, doi: `10.9/${n}`, publicationDate: '2024-05-01', ...extra });

test.before.each(async () => {
  t = await startTestServer();
});
test.after.each(async () => t.close());

test('name_affiliation needs the profile affiliation as whole words inside the author affiliation', async () => {
  store([
    paper('mila', [author('Yoshua Bengio', { affiliations: ['Institute for Similarity Search'] })]),
    paper('short', [author('Ada Lovelace', { affiliations: ['University'] })]),
    paper('nuclear', [author('Alan Turing', { affiliations: ['Nuclear Physics Lab'] })]),
    paper('real', [author('Grace Hopper', { affiliations: ['Dept. of Physics, University of Oxford, UK'] })]),
  ]);
  const bengio = await create({ name: 'Yoshua Bengio', affiliations: ['Mila'] });
  const lovelace = await create({ name: 'Ada Lovelace', affiliations: ['University of Oxford'] });
  const turing = await create({ name: 'Alan Turing', affiliations: ['UCL'] });
  const hopper = await create({ name: 'Grace Hopper', affiliations: ['University of Oxford'] });
  for (const p of [bengio, lovelace, turing]) {
    const m = await matches(p.id);
    assert.is(m.total, 1, p.name);
    assert.is(m.matches[0].basis, 'name_only', `${p.name}: the affiliation was not on the paper`);
  }
  const h = await matches(hopper.id);
  assert.is(h.matches[0].basis, 'name_affiliation');
  assert.match(h.matches[0].evidence, /University of Oxford/);
});

test("a group's name agrees only whole: another collaboration with the same article and family word is not a match", async () => {
  store([paper('alice', [author('The ALICE Collaboration')]), paper('atlas', [author('The ATLAS Collaboration')])]);
  const g = await create({ kind: 'group', name: 'ATLAS Collaboration', aliases: ['The ATLAS Collaboration'] });
  const m = await matches(g.id);
  assert.is(m.total, 1);
  assert.is(m.matches[0].matched_author, 'The ATLAS Collaboration');
  assert.is(m.matches[0].basis, 'alias');
});

test('profile matches for an empty page of papers: an empty answer with the glossary, not a refusal', async () => {
  const r = await t.request('POST', '/api/profiles/matches/for-documents', { body: { document_ids: [] } });
  assert.is(r.status, 200);
  const a = r.json();
  assert.equal(a.documents, []);
  assert.is(a.by_basis.orcid, 0);
  assert.ok(a.what_a_basis_means.name_only);
});

test.run();

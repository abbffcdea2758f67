/**
 * Watch profiles over HTTP: every basis from real recorded OpenAlex records plus constructed
 * ones, the basis warning, the glossary on every answer (empty ones too), paging, import and
 * export round trip, refusals, incremental matching, and delete leaving the corpus untouched.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeRecords } from '../src/corpus/merge.js';
import { insertEvent } from '../src/lifecycle/repo.js';
import { makeRecord, author } from '../src/sources/normalize.js';
import { parseResponse as parseOpenAlex } from '../src/sources/openalex.js';
import type { NormalizedRecord } from '../src/sources/types.js';
import { fixture, startTestServer, type TestServer } from './_setup.js';
import { addRun } from './_history.js';
import { runAfterRunSteps } from '../src/executions/after-run.js';

const NOW = '2026-11-20T00:00:00.000Z';
const BASES = ['orcid', 'orcid_cited', 'name_affiliation', 'alias', 'name_only'];
let t: TestServer;

const openalex = () => parseOpenAlex(fixture('openalex/works-search-ml-nlp-2020-2022-first5-of-50.json').toString('utf8')).records;
const store = (records: NormalizedRecord[]) => mergeRecords(t.ctx.db, records.map((record, rank) => ({ record, rank })), NOW).map((r) => r.documentId);
const docCount = () => t.ctx.db.prepare('SELECT COUNT(*) FROM documents').pluck().get() as number;
const create = async (body: unknown) => t.request('POST', '/api/profiles', { body });
const matches = async (id: number, query = '') => (await t.request('GET', `/api/profiles/${id}/matches${query}`)).json();

test.before.each(async () => {
  t = await startTestServer();
  store(openalex());
});
test.after.each(async () => t.close());

test('orcid: an author record carrying the ORCID matches by identity, with no warning', async () => {
  const r = await create({ name: 'Han Trong Thanh', orcid: 'https://orcid.org/0000-0002-8512-9529' });
  assert.is(r.status, 201);
  const p = r.json();
  assert.is(p.orcid, '0000-0002-8512-9529');
  assert.equal(p.identifier_schemes, ['orcid']);
  assert.is(p.basis_warning, undefined);
  assert.is(p.match_count, 1);
  const m = await matches(p.id);
  assert.is(m.total, 1);
  assert.is(m.matches[0].basis, 'orcid');
  assert.is(m.matches[0].matched_author, 'Hán Trọng Thanh');
  assert.match(m.matches[0].evidence, /0000-0002-8512-9529/);
  assert.equal(Object.keys(m.by_basis).sort(), [...BASES].sort());
  assert.is(m.by_basis.orcid, 1);
  assert.equal(Object.keys(m.what_a_basis_means).sort(), [...BASES].sort());
});

test('name_affiliation, name_only and alias: string matches, and the glossary says so', async () => {
  const withAffiliation = (await create({ name: 'Hinh Nguyen Van', affiliations: ['Hanoi University of Science'] })).json();
  assert.match(withAffiliation.basis_warning, /no identifier/i);
  assert.equal(withAffiliation.identifier_schemes, []);
  const nameOnly = (await create({ name: 'Zsófia Rakovics' })).json();
  const alias = (await create({ name: 'Zsofia R. Kovacs', aliases: ['Zsofia Rakovics'] })).json();
  const a = await matches(withAffiliation.id);
  assert.is(a.matches[0].basis, 'name_affiliation');
  assert.match(a.matches[0].evidence, /Hanoi University of Science/);
  const n = await matches(nameOnly.id);
  assert.is(n.matches[0].basis, 'name_only');
  assert.match(n.what_a_basis_means.name_only, /not an identity claim/);
  const al = await matches(alias.id);
  assert.is(al.matches[0].basis, 'alias');
  assert.is(al.matches[0].matched_author, 'Zsófia Rakovics');
});

test('a namesake whose record carries another ORCID never matches by name; initials agree, other first names do not', async () => {
  const other = (await create({ name: 'Árpád Knap', orcid: '0000-0002-1825-0097' })).json();
  assert.is((await matches(other.id)).total, 0);
  const initial = (await create({ name: 'A. Knap' })).json();
  assert.is((await matches(initial.id)).total, 1);
  const different = (await create({ name: 'Andras Knap' })).json();
  assert.is((await matches(different.id)).total, 0);
});

test('orcid from another source: the merged authors lack it, the Crossref record carries it; orcid_cited when no author does', async () => {
  const [paper] = store([makeRecord({ source: 'arxiv', nativeId: '2401.00001', title: 'A study of things in detail', authors: [author('Ada Lovelace')], doi: '10.1234/things', publicationDate: '2024-01-02' })]);
  store([makeRecord({ source: 'crossref', nativeId: '10.1234/things', title: 'A study of things in detail', authors: [author('Ada Lovelace', { orcid: '0000-0001-5109-3700' })], doi: '10.1234/things' })]);
  const [other] = store([makeRecord({ source: 'crossref', nativeId: '10.1234/other', title: 'Another paper entirely', authors: [author('B. Babbage')], doi: '10.1234/other', relations: [{ kind: 'has_version', url: 'https://orcid.org/0000-0001-5109-3700' }] })]);
  const p = (await create({ name: 'Ada Lovelace', orcid: '0000-0001-5109-3700' })).json();
  const m = await matches(p.id);
  assert.is(m.total, 1, 'without orcid_cited only the author record counts');
  assert.is(m.matches[0].document_id, paper);
  assert.is(m.matches[0].basis, 'orcid');
  assert.match(m.matches[0].evidence, /0000-0001-5109-3700/);
  await t.request('PUT', `/api/profiles/${p.id}`, { body: { orcid_cited: true } });
  const cited = await matches(p.id, '?basis=orcid_cited');
  assert.is(cited.total, 1);
  assert.is(cited.matches[0].document_id, other);
  assert.is(cited.matches[0].matched_author, null);
});

test('matching is incremental: documents that arrive later are matched on the next read, and after a run', async () => {
  const p = (await create({ name: 'Grace Hopper' })).json();
  assert.is(p.match_count, 0);
  const watermark = () => t.ctx.db.prepare('SELECT scanned_through_document_id FROM watch_profiles WHERE id = ?').pluck().get(p.id) as number;
  const before = watermark();
  assert.is(before, docCount());
  store([makeRecord({ source: 'crossref', nativeId: 'x1', title: 'Compilers for everyone', authors: [author('Grace Hopper')], doi: '10.1/x1' })]);
  assert.is((await matches(p.id)).total, 1);
  assert.ok(watermark() > before);
});

test('after a run, papers it saw again are matched again: a new record\'s ORCID upgrades the basis, another ORCID drops a namesake', async () => {
  const p = (await create({ name: 'Ada Lovelace', orcid: '0000-0001-5109-3700' })).json();
  const [paper] = store([makeRecord({ source: 'arxiv', nativeId: '2402.00001', title: 'Engines of analysis revisited', authors: [author('Ada Lovelace')], doi: '10.1234/engines', publicationDate: '2024-02-01' })]);
  const [namesake] = store([makeRecord({ source: 'arxiv', nativeId: '2402.00002', title: 'Poetical science for today', authors: [author('Ada Lovelace')], doi: '10.1234/poetical', publicationDate: '2024-02-02' })]);
  const bases = async () => Object.fromEntries(((await matches(p.id)).matches as { document_id: number; basis: string }[]).map((m) => [m.document_id, m.basis]));
  assert.equal(await bases(), { [paper!]: 'name_only', [namesake!]: 'name_only' });

  // A Crossref run sees both papers again: one with the profile's ORCID on the author, one with another person's.
  store([
    makeRecord({ source: 'crossref', nativeId: '10.1234/engines', title: 'Engines of analysis revisited', authors: [author('Ada Lovelace', { orcid: '0000-0001-5109-3700' })], doi: '10.1234/engines' }),
    makeRecord({ source: 'crossref', nativeId: '10.1234/poetical', title: 'Poetical science for today', authors: [author('Ada Lovelace', { orcid: '0000-0002-1825-0097' })], doi: '10.1234/poetical' }),
  ]);
  const run = addRun(t.ctx, { startedAt: NOW, sources: { crossref: { docs: [paper!, namesake!] } } });
  await runAfterRunSteps(t.ctx, { id: run, status: 'completed' });
  assert.equal(await bases(), { [paper!]: 'orcid' }, 'the basis is upgraded and the namesake is no longer claimed');
});

test('paging by limit and offset, basis filter, and the glossary on an empty answer', async () => {
  const p = (await create({ name: 'Nobody Atall' })).json();
  const empty = await matches(p.id);
  assert.is(empty.total, 0);
  assert.equal(empty.matches, []);
  assert.equal(Object.keys(empty.what_a_basis_means).sort(), [...BASES].sort());
  assert.is(empty.by_basis.name_only, 0);
  store([1, 2, 3].map((i) => makeRecord({ source: 'crossref', nativeId: `p${i}`, title: `Paper number ${i} on a topic`, authors: [author('Nobody Atall')], doi: `10.1/p${i}`, publicationDate: `2024-0${i}-01` })));
  const first = await matches(p.id, '?limit=2&offset=0');
  assert.is(first.total, 3);
  assert.is(first.matches.length, 2);
  assert.is(first.has_more, true);
  assert.is(first.matches[0].publication_date, '2024-03-01');
  const second = await matches(p.id, '?limit=2&offset=2');
  assert.is(second.matches.length, 1);
  assert.is(second.has_more, false);
  for (const q of ['?limit=0', '?limit=201', '?offset=-1', '?basis=guess', '?limit=1.5']) {
    assert.is((await t.request('GET', `/api/profiles/${p.id}/matches${q}`)).status, 422, q);
  }
});

test('refusals: bad ORCID check digit, empty name, unknown field, unknown kind, taken ORCID, absent profile', async () => {
  const bad = await create({ name: 'X', orcid: '0000-0002-1825-0098' });
  assert.is(bad.status, 422);
  assert.equal(bad.json().detail[0].loc, ['body', 'orcid']);
  assert.is((await create({ name: '  ' })).status, 422);
  assert.is((await create({ name: 'X', colour: 'blue' })).status, 422);
  assert.is((await create({ name: 'X', kind: 'robot' })).status, 422);
  assert.is((await create({ name: 'X', aliases: Array.from({ length: 21 }, (_, i) => `a${i}`) })).status, 422);
  assert.is((await create({ name: 'A', orcid: '0000-0002-1825-0097' })).status, 201);
  const taken = await create({ name: 'B', orcid: '0000-0002-1825-0097' });
  assert.is(taken.status, 409);
  assert.is(taken.json().detail.reason, 'profile_exists');
  for (const path of ['/api/profiles/999', '/api/profiles/999/matches', '/api/profiles/999/export', '/api/profiles/999/lifecycle']) {
    assert.is((await t.request('GET', path)).status, 404, path);
  }
  assert.is((await t.request('GET', '/api/profiles/abc')).status, 422);
  assert.is((await t.request('PUT', '/api/profiles/999', { body: {} })).status, 404);
  assert.is((await t.request('DELETE', '/api/profiles/999')).status, 404);
});

test('update: null removes the ORCID (the warning returns), matches are recomputed', async () => {
  const p = (await create({ name: 'Han Trong Thanh', orcid: '0000-0002-8512-9529' })).json();
  const u = (await t.request('PUT', `/api/profiles/${p.id}`, { body: { orcid: null } })).json();
  assert.is(u.orcid, null);
  assert.match(u.basis_warning, /no identifier/i);
  const m = await matches(p.id);
  assert.is(m.matches[0].basis, 'name_only');
  const list = (await t.request('GET', '/api/profiles')).json();
  assert.is(list.total, 1);
  assert.match(list.profiles[0].basis_warning, /no identifier/i);
  assert.is((await t.request('GET', '/api/profiles?kind=group')).json().total, 0);
});

test('export then import round trip; import takes one export or a list, all or nothing, and skips a followed ORCID', async () => {
  const p = (await create({ name: 'Han Trong Thanh', orcid: '0000-0002-8512-9529', aliases: ['H. T. Thanh'], affiliations: ['Hanoi'], field_hints: ['nlp'] })).json();
  const exported = (await t.request('GET', `/api/profiles/${p.id}/export`)).json();
  assert.is(exported.format, 'svc-watch-profile');
  assert.is(exported.profile.id, undefined);
  const again = await t.request('POST', '/api/profiles/import', { body: { profiles: [exported] } });
  assert.is(again.status, 201);
  assert.is(again.json().imported, 0);
  assert.is(again.json().skipped[0].profile_id, p.id);
  await t.request('DELETE', `/api/profiles/${p.id}`);
  const back = (await t.request('POST', '/api/profiles/import', { body: { profiles: [exported, { name: 'Plain Object' }] } })).json();
  assert.is(back.imported, 2);
  const restored = back.profiles[0];
  for (const k of ['name', 'orcid', 'aliases', 'affiliations', 'field_hints', 'kind', 'display_name', 'orcid_cited']) assert.equal(restored[k], exported.profile[k], k);
  assert.is(restored.match_count, 1);
  const bad = await t.request('POST', '/api/profiles/import', { body: { profiles: [{ name: 'Fine' }, { name: '' }] } });
  assert.is(bad.status, 422);
  assert.equal(bad.json().detail[0].loc, ['body', 'profiles', 1, 'name']);
  assert.is((await t.request('GET', '/api/profiles')).json().total, 2, 'nothing of a refused import is stored');
  assert.is((await t.request('POST', '/api/profiles/import', { body: {} })).json().imported, 0);
  // One export on its own, not in a list.
  await t.request('DELETE', `/api/profiles/${restored.id}`);
  const single = await t.request('POST', '/api/profiles/import', { body: { profiles: exported } });
  assert.is(single.status, 201, single.text);
  assert.is(single.json().imported, 1);
  assert.is(single.json().profiles[0].orcid, exported.profile.orcid);
  assert.is((await t.request('POST', '/api/profiles/import', { body: { profiles: 'x' } })).status, 422);
  assert.is((await t.request('POST', '/api/profiles/import', { body: { profiles: Array.from({ length: 501 }, () => ({ name: 'x' })) } })).status, 422);
});

test('starter set: curated, not anybody\'s profile, each with the warning where it has no identifier', async () => {
  const s = (await t.request('GET', '/api/profiles/starter')).json();
  assert.ok(s.total >= 3);
  for (const p of s.profiles) {
    assert.is(p.id, undefined);
    assert.is(Boolean(p.basis_warning), !p.orcid);
  }
  assert.is((await t.request('GET', '/api/profiles')).json().total, 0);
});

test('matches for a page of documents: which profiles, on what basis; limits refused', async () => {
  const ids = t.ctx.db.prepare('SELECT id FROM documents ORDER BY id').pluck().all() as number[];
  await create({ name: 'Han Trong Thanh', orcid: '0000-0002-8512-9529' });
  await create({ name: 'Hinh Nguyen Van' });
  const r = (await t.request('POST', '/api/profiles/matches/for-documents', { body: { document_ids: ids } })).json();
  assert.is(r.documents.length, ids.length);
  const hit = r.documents.find((d: any) => d.matches.length === 2);
  assert.equal(hit.matches.map((m: any) => m.basis).sort(), ['name_only', 'orcid']);
  assert.is(r.by_basis.orcid, 1);
  assert.ok(r.what_a_basis_means.name_only);
  assert.is((await t.request('POST', '/api/profiles/matches/for-documents', { body: {} })).status, 422);
  assert.is((await t.request('POST', '/api/profiles/matches/for-documents', { body: { document_ids: Array.from({ length: 501 }, (_, i) => i + 1) } })).status, 422);
  assert.is((await t.request('POST', '/api/profiles/matches/for-documents', { body: { document_ids: [99999] } })).status, 404);
});

test('delete removes the profile and its matches; every document stays', async () => {
  const before = docCount();
  const p = (await create({ name: 'Han Trong Thanh', orcid: '0000-0002-8512-9529' })).json();
  const d = await t.request('DELETE', `/api/profiles/${p.id}`);
  assert.is(d.status, 200);
  assert.is(d.json().matches_removed, 1);
  assert.is(docCount(), before);
  assert.is(t.ctx.db.prepare('SELECT COUNT(*) FROM profile_matches').pluck().get(), 0);
  assert.is((await t.request('GET', `/api/profiles/${p.id}`)).status, 404);
});

test('lifecycle findings on the profile\'s papers keep the basis of the match', async () => {
  store([makeRecord({ source: 'crossref', nativeId: 'r1', title: 'A retracted result about widgets', authors: [author('Nobody Atall')], doi: '10.1/r1', isRetracted: true, relations: [{ kind: 'retracted_by', doi: '10.1/notice' }] })]);
  const p = (await create({ name: 'Nobody Atall' })).json();
  const l = (await t.request('GET', `/api/profiles/${p.id}/lifecycle`)).json();
  assert.is(l.total, 1);
  assert.is(l.findings[0].event, 'retraction');
  assert.is(l.findings[0].notice, 'https://doi.org/10.1/notice');
  assert.is(l.findings[0].basis, 'name_only');
});

test('lifecycle events recorded by the lifecycle check show on the profile with their notice links', async () => {
  const [doc] = store([makeRecord({ source: 'arxiv', nativeId: '2401.9', title: 'A preprint about gadgets and more', authors: [author('Nobody Atall')], ids: { arxiv: '2401.9' } })]);
  insertEvent(t.ctx.db, { documentId: doc!, kind: 'preprint_to_published', source: 'arxiv', noticeUrl: 'https://doi.org/10.1/published', noticeDoi: '10.1/published', label: 'published as 10.1/published' }, null, NOW);
  const p = (await create({ name: 'Nobody Atall' })).json();
  const l = (await t.request('GET', `/api/profiles/${p.id}/lifecycle`)).json();
  assert.is(l.total, 1);
  assert.equal([l.findings[0].event, l.findings[0].notice, l.findings[0].basis], ['preprint_to_published', 'https://doi.org/10.1/published', 'name_only']);
  assert.match(l.findings[0].found_by, /lifecycle check/);
});

test.run();

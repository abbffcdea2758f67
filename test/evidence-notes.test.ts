import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import { refusal } from './_library.js';
import { startEvidenceServer, type EvidenceServer, type FileRef } from './_evidence.js';

let s: EvidenceServer;
let projectId: string;
let doc: FileRef;
let other: FileRef;
// Astral characters before the passage: UTF-16 offsets would be off by one per character.
const TEXT = 'Intro 𝐀𝐁 😀 line\r\nThe claim: sleep 𝔰𝔱𝔞𝔟𝔦𝔩𝔦𝔷𝔢𝔰 memory.\n';
const PAGE = TEXT.replace(/\r\n/g, '\n');
const sha = (t: string) => crypto.createHash('sha256').update(t, 'utf8').digest('hex');

test.before(async () => {
  s = await startEvidenceServer({ limits: { notesPerProject: 8 } });
  projectId = (await s.project('Notes')).project_id;
  doc = await s.file('claim.txt', TEXT);
  other = await s.file('other.md', 'other words\n');
  await s.add(projectId, doc);
});
test.after(() => s.close());

const N = () => `${s.P(projectId)}/notes`;
const note = async (fields: Record<string, unknown>, f: FileRef = doc) =>
  s.call('POST', N(), { expected_vault_id: s.vaultId, expected_revision: await s.revision(projectId), file_id: f.file_id, version_id: f.version_id, ...fields });

function anchorFor(quote: string, extra: Record<string, unknown> = {}) {
  const cps = [...PAGE];
  const q = [...quote];
  let start = -1;
  for (let i = 0; i + q.length <= cps.length; i++) if (cps.slice(i, i + q.length).join('') === quote) { start = i; break; }
  return { page_basis: 'logical', page: 1, extraction_contract: 'library-text-lf/v1', page_sha256: sha(PAGE), start, end: start + q.length, quote, ...extra };
}

test('the reader gives a text file as one logical page with its codepoint length and page hash', async () => {
  const r = await s.call('GET', `${s.P(projectId)}/reader/${doc.file_id}?${s.V}&version_id=${doc.version_id}&page=1`);
  assert.is(r.status, 200);
  assert.is(r.headers['cache-control'], 'no-store');
  const page = r.json();
  assert.is(page.status, 'extracted');
  assert.is(page.extraction_contract, 'library-text-lf/v1');
  assert.is(page.page_basis, 'logical');
  assert.is(page.page_count, 1);
  assert.is(page.text, PAGE);
  assert.is(page.codepoint_length, [...PAGE].length);
  assert.ok(page.codepoint_length < PAGE.length, 'codepoints, not UTF-16 units');
  assert.is(page.page_sha256, sha(PAGE));
  assert.equal(page.pages, [{ page: 1, status: 'extracted' }]);
  refusal(await s.call('GET', `${s.P(projectId)}/reader/${doc.file_id}?${s.V}&version_id=${doc.version_id}&page=2`), 422, 'page_out_of_range');
  refusal(await s.call('GET', `${s.P(projectId)}/reader/${other.file_id}?${s.V}&version_id=${other.version_id}&page=1`), 409, 'not_a_member');
  refusal(await s.call('GET', `${s.P(projectId)}/reader/${doc.file_id}?${s.V}&version_id=${doc.version_id}&page=1&representation=pdf`), 422, 'representation_unsupported');
  refusal(await s.call('GET', `${s.P(projectId)}/reader/${doc.file_id}?${s.V}&version_id=${doc.version_id}&page=1&representation=html`), 422, 'invalid_value');
});

test('passage note: offsets are codepoints past astral characters; the anchor is saved exactly; body may be empty', async () => {
  const rev = await s.revision(projectId);
  const anchor = anchorFor('sleep 𝔰𝔱𝔞𝔟𝔦𝔩𝔦𝔷𝔢𝔰 memory');
  assert.is(anchor.start, 27);
  assert.is(PAGE.indexOf("sleep"), 30, "the UTF-16 offset differs");
  const r = await note({ kind: 'passage', body: '', anchor });
  assert.is(r.status, 201, r.text);
  const saved = r.json();
  assert.is(saved.contract_version, 1);
  assert.is(saved.project.revision, rev + 1);
  assert.is(saved.note.kind, 'passage');
  assert.is(saved.note.body, '');
  assert.is(saved.note.revision, 1);
  assert.is(saved.note.file_id, doc.file_id);
  assert.is(saved.note.version_id, doc.version_id);
  const { quote, start, end, page, page_basis, extraction_contract, page_sha256 } = anchor;
  assert.equal(saved.note.anchor, { page_basis, page, extraction_contract, page_sha256, start, end, quote, content_sha256: doc.sha256 });
});

test('passage anchors are rechecked against the page read now: every mismatch refuses and saves nothing', async () => {
  const good = anchorFor('The claim');
  const before = (await s.call('GET', `${N()}?${s.V}`)).json().total;
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, quote: 'The clai' } }), 409, 'quote_mismatch');
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, start: good.start + 1, end: good.end + 1 } }), 409, 'quote_mismatch');
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, page_sha256: sha('other') } }), 409, 'page_hash_mismatch');
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, extraction_contract: 'pdfjs-dist-5.6.205/plain-lf/v1' } }), 409, 'contract_mismatch');
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, page_basis: 'physical' } }), 422, 'anchor_invalid');
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, end: good.start } }), 422, 'anchor_invalid');
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, start: 0, end: 10_000 } }), 422, 'anchor_invalid');
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, page: 2 } }), 422, 'page_out_of_range');
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, extra: 1 } }), 422, 'unknown_field');
  refusal(await note({ kind: 'passage', body: 'x', anchor: { ...good, start: -1 } }), 422, 'invalid_integer');
  refusal(await note({ kind: 'passage', body: 'x', anchor: null }), 422, 'anchor_invalid');
  refusal(await note({ kind: 'plain', body: 'x', anchor: good }), 422, 'anchor_invalid');
  refusal(await note({ kind: 'highlight', body: 'x', anchor: null }), 422, 'invalid_value');
  refusal(await note({ kind: 'plain', body: 'x' }), 422, 'missing_field');
  refusal(await note({ kind: 'plain', body: 'x', anchor: null }, other), 409, 'not_a_member');
  refusal(await s.call('POST', N(), { expected_vault_id: s.vaultId, expected_revision: 1, file_id: doc.file_id, version_id: doc.version_id, kind: 'plain', body: 'x', anchor: null }), 409, 'revision_conflict');
  assert.is((await s.call('GET', `${N()}?${s.V}`)).json().total, before);
});

test('bodies: plain needs text; at most 20,000 codepoints (astral counts one); quote the same', async () => {
  const blank = await note({ kind: 'plain', body: '', anchor: null });
  refusal(blank, 422, 'body_empty');
  assert.match(blank.json().detail.message, /A plain note needs text: give a body that is not empty/);
  refusal(await note({ kind: 'plain', body: ' \n ', anchor: null }), 422, 'body_empty');
  refusal(await note({ kind: 'plain', body: '😀'.repeat(20_001), anchor: null }), 422, 'body_invalid');
  refusal(await note({ kind: 'plain', body: 'a\ud800b', anchor: null }), 422, 'body_invalid');
  const max = await note({ kind: 'plain', body: '😀'.repeat(20_000), anchor: null });
  assert.is(max.status, 201, max.text);
  refusal(await note({ kind: 'passage', body: '', anchor: { ...anchorFor('Intro'), quote: 'x'.repeat(20_001) } }), 422, 'anchor_invalid');
});

test('edit: body only, compare-and-swap on project and note revisions; the same body is a no-op', async () => {
  const created = (await note({ kind: 'plain', body: 'first thought', anchor: null })).json();
  const id = created.note.note_id;
  const rev = created.project.revision;
  const edit = (fields: Record<string, unknown>) => s.call('PATCH', `${N()}/${id}`, { expected_vault_id: s.vaultId, ...fields });
  const r = await edit({ expected_revision: rev, expected_note_revision: 1, body: 'second thought' });
  assert.is(r.status, 200, r.text);
  assert.is(r.json().note.revision, 2);
  assert.is(r.json().note.body, 'second thought');
  assert.is(r.json().project.revision, rev + 1);
  refusal(await edit({ expected_revision: rev, expected_note_revision: 2, body: 'x' }), 409, 'revision_conflict');
  refusal(await edit({ expected_revision: rev + 1, expected_note_revision: 1, body: 'x' }), 409, 'note_revision_conflict');
  refusal(await edit({ expected_revision: rev + 1, expected_note_revision: 2, body: '' }), 422, 'body_empty');
  refusal(await edit({ expected_revision: rev + 1, expected_note_revision: 2, body: 'x', kind: 'passage' }), 422, 'unknown_field');
  const same = (await edit({ expected_revision: rev + 1, expected_note_revision: 2, body: 'second thought' })).json();
  assert.is(same.changed, false);
  assert.is(same.note.revision, 2);
  assert.is(same.project.revision, rev + 1);
  refusal(await s.call('PATCH', `${N()}/999999`, { expected_vault_id: s.vaultId, expected_revision: rev + 1, expected_note_revision: 1, body: 'x' }), 404, 'note_not_found');
  refusal(await s.call('PATCH', `${N()}/abc`, { expected_vault_id: s.vaultId, expected_revision: rev + 1, expected_note_revision: 1, body: 'x' }), 422, 'invalid_integer');
});

test('list and filter; removing the membership keeps notes; re-adding the same version reconnects them', async () => {
  const all = (await s.call('GET', `${N()}?${s.V}&limit=2`)).json();
  assert.is(all.items.length, 2);
  assert.is(all.has_more, true);
  assert.is(all.project_revision, await s.revision(projectId));
  const filtered = (await s.call('GET', `${N()}?${s.V}&file_id=${doc.file_id}&version_id=${doc.version_id}`)).json();
  assert.is(filtered.total, all.total);
  refusal(await s.call('GET', `${N()}?${s.V}&file_id=${doc.file_id}`), 422, 'file_filter_incomplete');
  refusal(await s.call('GET', `${N()}?${s.V}&file_id=${doc.file_id}&version_id=${other.version_id}`), 409, 'version_mismatch');
  const rev = await s.revision(projectId);
  assert.is((await s.call('DELETE', `${s.P(projectId)}/files/${doc.file_id}?${s.V}&expected_revision=${rev}&version_id=${doc.version_id}`)).status, 200);
  assert.is((await s.call('GET', `${N()}?${s.V}`)).json().total, all.total, 'notes stay');
  refusal(await note({ kind: 'plain', body: 'x', anchor: null }), 409, 'not_a_member');
  await s.add(projectId, doc);
  const back = (await s.call('GET', `${N()}?${s.V}&file_id=${doc.file_id}&version_id=${doc.version_id}`)).json();
  assert.is(back.total, all.total);
  assert.ok(back.items.some((n: any) => n.kind === 'passage' && n.anchor.start === 27));
});

test('the note limit refuses 413', async () => {
  for (let total = (await s.call('GET', `${N()}?${s.V}`)).json().total; total < 8; total++) assert.is((await note({ kind: 'plain', body: `n${total}`, anchor: null })).status, 201);
  refusal(await note({ kind: 'plain', body: 'one too many', anchor: null }), 413, 'note_limit');
});

test.run();

/**
 * MCP export_references and document 3's export rule (at most 8 MiB of text
 * per format, refused rather than truncated), against the real backend: an
 * execution has no paper-count bound, and doc_ids within its 500 can still
 * carry long abstracts, so both paths are held to the bytes, the same way.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBackend } from '../src/mcp/backend.js';
import { callTool } from '../src/mcp/call.js';
import type { Paths } from '../src/paths.js';
import { startTestServer, type TestServer } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';

/** Document 3, Limits. */
const MAX_EXPORT_TEXT_BYTES = 8 * 1024 * 1024;
let t: TestServer;
let big: number[];
const call = async (args: Record<string, unknown>) => {
  const r = await callTool(createBackend({ port: t.port, paths: {} as Paths, fetch, token: t.token }), 'export_references', args);
  return { isError: Boolean(r.isError), ...(r.structuredContent as any) };
};

function execution(docIds: number[]): number {
  const db = t.ctx.db;
  const id = Number(db.prepare(`INSERT INTO executions (type, status, query, repositories_json, parameters_json, started_at_utc) VALUES ('dive', 'completed', 'q', '["crossref"]', '{}', ?)`).run(t.ctx.nowIso()).lastInsertRowid);
  const link = db.prepare('INSERT INTO execution_documents (execution_id, document_id, source, rank, is_new) VALUES (?, ?, ?, ?, ?)');
  docIds.forEach((doc, rank) => link.run(id, doc, 'crossref', rank, 1));
  return id;
}

test.before(async () => {
  t = await startTestServer();
  // 90 papers of about 100 KiB of abstract each: about 9 MiB of references in any format.
  big = seed(t.ctx, Array.from({ length: 90 }, (_, i) => makeRecord(i + 1, { abstract: `Soil carbon ${i} `.repeat(7000) })));
});
test.after(() => t.close());

test('export_references with an exec_id over 8 MiB is refused, not truncated, like doc_ids', async () => {
  const exec = execution(big);
  for (const format of ['json', 'ris']) {
    const r = await call({ exec_id: exec, format });
    assert.is(r.isError, true, `${format}: answered ${String(r.text?.length)} characters`);
    assert.is(r.error, 'invalid_argument');
    assert.match(r.message, new RegExp(`The ${format} export of execution ${exec} would be \\d+ bytes, over the 8388608-byte \\(8 MiB\\) limit; it is refused, not truncated`));
    assert.match(r.message, /doc_ids/);
    assert.is(r.text, undefined);
    assert.is(r.detail.limit_bytes, MAX_EXPORT_TEXT_BYTES);
    assert.ok(r.detail.size_bytes > MAX_EXPORT_TEXT_BYTES);
  }
  const byDocs = await call({ doc_ids: big, format: 'json' });
  assert.equal([byDocs.isError, byDocs.error, byDocs.detail.limit_bytes], [true, 'invalid_argument', MAX_EXPORT_TEXT_BYTES]);
  assert.match(byDocs.message, /export of those 90 papers would be \d+ bytes/);
});

test('export_references under 8 MiB answers every paper, by exec_id and by doc_ids alike', async () => {
  const some = big.slice(0, 10);
  const exec = execution(some);
  const byExec = await call({ exec_id: exec, format: 'json' });
  assert.not.ok(byExec.isError, byExec.message);
  assert.is(JSON.parse(byExec.text).count, 10);
  const byDocs = await call({ doc_ids: some, format: 'json' });
  assert.is(byDocs.text, byExec.text);
});

test.run();

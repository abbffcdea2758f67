/**
 * The nine Library routes (spec 2). Each runs the Library guard first (via
 * libraryRoute), then reads its strict query and body with the schemas of
 * src/util/strict-schemas.ts, calls one service function and answers with
 * Cache-Control: no-store, refusals included.
 */
import type { H3Event } from 'h3';
import * as v from 'valibot';
import {
  checkImportTarget,
  createVault,
  exportInventory,
  fileMetadata,
  importFile,
  libraryOf,
  libraryStatusWithFolder,
  linkPaper,
  listFiles,
  openFile,
  readText,
} from '../../src/library/index.js';
import { fileTooLarge } from '../../src/library/reasons.js';
import { isSvcError, SvcError } from '../../src/errors.js';
import { jsonBody, jsonInt, literal, queryInt, text, uuid } from '../../src/util/strict-schemas.js';
import { readBodyBytes, readValid } from '../body.js';
import { libraryRoute } from '../library-guard.js';
import { strictQuery, uuidParam } from '../params.js';
import type { AppDeps, RouteDef } from '../registry.js';

const VAULT = { expected_vault_id: uuid() };
const VERSIONED = { ...VAULT, expected_version_id: uuid() };

const strictBody = (deps: AppDeps) => ({ strict: true, limit: libraryOf(deps.ctx).limits.jsonBodyBytes });
const octetStream = (event: H3Event) => /^application\/octet-stream\s*$/i.test(event.req.headers.get('content-type') ?? '');

export const libraryRoutes: RouteDef[] = [
  libraryRoute('GET', '/api/library', (event, { ctx }) => {
    strictQuery(event, {});
    return libraryStatusWithFolder(ctx);
  }),

  libraryRoute('POST', '/api/library/vault', async (event, deps) => {
    strictQuery(event, {});
    const limits = libraryOf(deps.ctx).limits;
    const body = await readValid(event, jsonBody({ parent_directory: text(1, limits.parentChars) }), strictBody(deps));
    const status = await createVault(deps.ctx, body.parent_directory);
    event.res.status = 201;
    return status;
  }),

  libraryRoute('GET', '/api/library/files', (event, { ctx }) => {
    const limits = libraryOf(ctx).limits;
    const query = strictQuery(event, {
      ...VAULT,
      q: v.optional(text(1, limits.nameChars)),
      through_id: v.optional(queryInt(0)),
      before_id: v.optional(queryInt(1)),
      limit: v.optional(queryInt(1, limits.listMax)),
    });
    if (query.before_id !== undefined && query.through_id === undefined) {
      throw new SvcError(422, 'through_id_required', 'before_id pages under a ceiling: send the through_id of the first page with it.', { loc: ['query', 'before_id'] });
    }
    return listFiles(ctx, { expectedVaultId: query.expected_vault_id, q: query.q, throughId: query.through_id, beforeId: query.before_id, limit: query.limit });
  }),

  libraryRoute('POST', '/api/library/files', async (event, { ctx }) => {
    const query = strictQuery(event, { ...VAULT, filename: text(0, 4096), document_id: v.optional(queryInt(1)) });
    const target = { expectedVaultId: query.expected_vault_id, filename: query.filename, documentId: query.document_id };
    if (!octetStream(event)) throw new SvcError(422, 'content_type_invalid', 'Send the file bytes as application/octet-stream.', { loc: ['header', 'content-type'] });
    checkImportTarget(ctx, target); // refuse before reading the bytes
    const limit = libraryOf(ctx).limits.fileBytes;
    let bytes: Buffer;
    try {
      bytes = await readBodyBytes(event, limit);
    } catch (err) {
      throw isSvcError(err) && err.reason === 'body_too_large' ? fileTooLarge(limit) : err;
    }
    const receipt = await importFile(ctx, { ...target, bytes });
    event.res.status = receipt.outcome === 'created' ? 201 : 200;
    return receipt;
  }),

  libraryRoute('GET', '/api/library/files/{file_id}', (event, { ctx }, params) => {
    const fileId = uuidParam(params, 'file_id');
    const query = strictQuery(event, VAULT);
    return fileMetadata(ctx, { expectedVaultId: query.expected_vault_id, fileId });
  }),

  libraryRoute('POST', '/api/library/files/{file_id}/paper-links', async (event, deps, params) => {
    const fileId = uuidParam(params, 'file_id');
    strictQuery(event, {});
    const body = await readValid(event, jsonBody({ ...VAULT, document_id: jsonInt(1) }), strictBody(deps));
    const receipt = linkPaper(deps.ctx, { expectedVaultId: body.expected_vault_id, fileId, documentId: body.document_id });
    event.res.status = receipt.created ? 201 : 200;
    return receipt;
  }),

  libraryRoute('POST', '/api/library/files/{file_id}/open', async (event, deps, params) => {
    const fileId = uuidParam(params, 'file_id');
    strictQuery(event, {});
    const body = await readValid(event, jsonBody(VERSIONED), strictBody(deps));
    return openFile(deps.ctx, { expectedVaultId: body.expected_vault_id, fileId, expectedVersionId: body.expected_version_id });
  }),

  libraryRoute('GET', '/api/library/export', (event, { ctx }) => {
    const query = strictQuery(event, { ...VAULT, format: literal('json') });
    return exportInventory(ctx, { expectedVaultId: query.expected_vault_id });
  }),

  libraryRoute('GET', '/api/library/files/{file_id}/text', (event, { ctx }, params) => {
    const fileId = uuidParam(params, 'file_id');
    const query = strictQuery(event, VERSIONED);
    return readText(ctx, { expectedVaultId: query.expected_vault_id, fileId, expectedVersionId: query.expected_version_id });
  }),
];

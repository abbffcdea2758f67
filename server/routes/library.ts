/**
 * The nine Library routes (spec 2). Each runs the Library guard first, then
 * reads its strict query and body, calls one service function and answers
 * with Cache-Control: no-store, refusals included.
 */
import { STATUS_CODES } from 'node:http';
import type { H3Event } from 'h3';
import {
  checkImportTarget,
  createVault,
  exportInventory,
  fileMetadata,
  importFile,
  libraryOf,
  libraryStatus,
  linkPaper,
  listFiles,
  openFile,
  readText,
} from '../../src/library/index.js';
import { fileTooLarge } from '../../src/library/reasons.js';
import { isSvcError, SvcError } from '../../src/errors.js';
import { readBodyBytes } from '../body.js';
import { sendError } from '../errors.js';
import { checkLibraryRequest } from '../library-guard.js';
import { strictJsonBody, strictQuery, uuidParam, type Fields } from '../library-input.js';
import { route, type AppDeps, type Method, type RouteDef } from '../registry.js';

const NO_STORE = 'no-store';

type Answer = { status?: number; body: unknown };
type LibraryHandler = (event: H3Event, deps: AppDeps, params: Record<string, string>) => Answer | Promise<Answer>;

function libraryRoute(method: Method, path: string, handler: LibraryHandler): RouteDef {
  return route(method, path, async (event, deps, params) => {
    event.res.headers.set('cache-control', NO_STORE);
    try {
      checkLibraryRequest(event, deps.runtime);
      const { status = 200, body } = await handler(event, deps, params);
      event.res.status = status;
      event.res.statusText = STATUS_CODES[status] ?? '';
      return body;
    } catch (err) {
      return sendError(event, err, deps.ctx.log);
    }
  });
}

const VAULT = { expected_vault_id: { required: true, kind: 'uuid' } } as const satisfies Fields;
const VERSIONED = { ...VAULT, expected_version_id: { required: true, kind: 'uuid' } } as const satisfies Fields;

const jsonLimit = (deps: AppDeps) => libraryOf(deps.ctx).limits.jsonBodyBytes;
const octetStream = (event: H3Event) => /^application\/octet-stream\s*$/i.test(event.req.headers.get('content-type') ?? '');

export const libraryRoutes: RouteDef[] = [
  libraryRoute('GET', '/api/library', (event, { ctx }) => {
    strictQuery(event, {});
    return { body: libraryStatus(ctx) };
  }),

  libraryRoute('POST', '/api/library/vault', async (event, deps) => {
    strictQuery(event, {});
    const limits = libraryOf(deps.ctx).limits;
    const body = await strictJsonBody(event, { parent_directory: { required: true, kind: 'string', min: 1, max: limits.parentChars } }, jsonLimit(deps));
    return { status: 201, body: await createVault(deps.ctx, body.parent_directory) };
  }),

  libraryRoute('GET', '/api/library/files', (event, { ctx }) => {
    const limits = libraryOf(ctx).limits;
    const query = strictQuery(event, {
      ...VAULT,
      q: { required: false, kind: 'string', min: 1, max: limits.nameChars },
      through_id: { required: false, kind: 'int', min: 0 },
      before_id: { required: false, kind: 'int', min: 1 },
      limit: { required: false, kind: 'int', min: 1, max: limits.listMax },
    });
    if (query.before_id !== undefined && query.through_id === undefined) {
      throw new SvcError(422, 'through_id_required', 'before_id pages under a ceiling: send the through_id of the first page with it.', { loc: ['query', 'before_id'] });
    }
    const body = listFiles(ctx, {
      expectedVaultId: query.expected_vault_id,
      q: query.q,
      throughId: query.through_id,
      beforeId: query.before_id,
      limit: query.limit,
    });
    return { body };
  }),

  libraryRoute('POST', '/api/library/files', async (event, { ctx }) => {
    const query = strictQuery(event, {
      ...VAULT,
      filename: { required: true, kind: 'string', min: 0, max: 4096 },
      document_id: { required: false, kind: 'int', min: 1 },
    });
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
    return { status: receipt.outcome === 'created' ? 201 : 200, body: receipt };
  }),

  libraryRoute('GET', '/api/library/files/{file_id}', (event, { ctx }, params) => {
    const fileId = uuidParam(params, 'file_id');
    const query = strictQuery(event, VAULT);
    return { body: fileMetadata(ctx, { expectedVaultId: query.expected_vault_id, fileId }) };
  }),

  libraryRoute('POST', '/api/library/files/{file_id}/paper-links', async (event, deps, params) => {
    const fileId = uuidParam(params, 'file_id');
    strictQuery(event, {});
    const body = await strictJsonBody(event, { ...VAULT, document_id: { required: true, kind: 'int', min: 1 } }, jsonLimit(deps));
    const receipt = linkPaper(deps.ctx, { expectedVaultId: body.expected_vault_id, fileId, documentId: body.document_id });
    return { status: receipt.created ? 201 : 200, body: receipt };
  }),

  libraryRoute('POST', '/api/library/files/{file_id}/open', async (event, deps, params) => {
    const fileId = uuidParam(params, 'file_id');
    strictQuery(event, {});
    const body = await strictJsonBody(event, VERSIONED, jsonLimit(deps));
    return { body: openFile(deps.ctx, { expectedVaultId: body.expected_vault_id, fileId, expectedVersionId: body.expected_version_id }) };
  }),

  libraryRoute('GET', '/api/library/export', (event, { ctx }) => {
    const query = strictQuery(event, { ...VAULT, format: { required: true, kind: 'literal', value: 'json' } });
    return { body: exportInventory(ctx, { expectedVaultId: query.expected_vault_id }) };
  }),

  libraryRoute('GET', '/api/library/files/{file_id}/text', (event, { ctx }, params) => {
    const fileId = uuidParam(params, 'file_id');
    const query = strictQuery(event, VERSIONED);
    return { body: readText(ctx, { expectedVaultId: query.expected_vault_id, fileId, expectedVersionId: query.expected_version_id }) };
  }),
];

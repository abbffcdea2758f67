/**
 * The twelve Evidence routes (spec 2, prefix /api/evidence/projects). Each
 * runs the Library guard first, reads its strict query and body, calls one
 * service function and answers no-store, refusals included. The bundle and
 * the pdf representation answer bytes.
 */
import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import type { H3Event } from 'h3';
import {
  addMember,
  buildBundle,
  createNote,
  createProject,
  editNote,
  evidenceOf,
  listMembers,
  listNotes,
  listProjects,
  readPage,
  readPdfBytes,
  removeMember,
  renameProject,
  showProject,
  type AnchorInput,
  type VersionSelector,
} from '../../src/evidence/index.js';
import { SvcError } from '../../src/errors.js';
import { isUuid4 } from '../../src/random.js';
import { sendError } from '../errors.js';
import { checkLibraryRequest } from '../library-guard.js';
import { strictJsonBody, strictQuery, uuidParam, type Fields } from '../library-input.js';
import { route, type AppDeps, type Method, type RouteDef } from '../registry.js';

const NO_STORE = 'no-store';
const P = '/api/evidence/projects';

type Answer = { status?: number; body: unknown } | Response;
type EvidenceHandler = (event: H3Event, deps: AppDeps, params: Record<string, string>) => Answer | Promise<Answer>;

function evidenceRoute(method: Method, path: string, handler: EvidenceHandler): RouteDef {
  return route(method, path, async (event, deps, params) => {
    event.res.headers.set('cache-control', NO_STORE);
    try {
      checkLibraryRequest(event, deps.runtime);
      const answer = await handler(event, deps, params);
      if (answer instanceof Response) return answer;
      const status = answer.status ?? 200;
      event.res.status = status;
      event.res.statusText = STATUS_CODES[status] ?? '';
      return answer.body;
    } catch (err) {
      return sendError(event, err, deps.ctx.log);
    }
  });
}

const bad = (reason: string, loc: (string | number)[], message: string) => new SvcError(422, reason, message, { loc });

const VAULT = { expected_vault_id: { required: true, kind: 'uuid' } } as const satisfies Fields;
const REVISION = { expected_revision: { required: true, kind: 'int', min: 1 } } as const satisfies Fields;
const PAGING = {
  after_id: { required: false, kind: 'int', min: 0 },
  through_id: { required: false, kind: 'int', min: 0 },
  limit: { required: false, kind: 'int', min: 1, max: 50 },
} as const satisfies Fields;
const TEXT = (max: number) => ({ required: true, kind: 'string', min: 0, max }) as const;

const jsonLimit = (deps: AppDeps) => evidenceOf(deps.ctx).limits.jsonBodyBytes;

function paging(q: Record<string, unknown>) {
  return { afterId: q.after_id as number | undefined, throughId: q.through_id as number | undefined, limit: q.limit as number | undefined };
}

function projectRef(q: Record<string, unknown>, params: Record<string, string>) {
  return { expectedVaultId: q.expected_vault_id as string, projectId: uuidParam(params, 'project_id') };
}

function noteIdParam(params: Record<string, string>): number {
  const raw = params.note_id ?? '';
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw bad('invalid_integer', ['path', 'note_id'], 'note_id must be a positive integer.');
  return Number(raw);
}

const ANCHOR_KEYS = ['page_basis', 'page', 'extraction_contract', 'page_sha256', 'start', 'end', 'quote'];

/** The passage anchor object: exactly its seven fields, each of its type. */
function parseAnchor(value: unknown): AnchorInput | null {
  if (value === null) return null;
  const loc = (k: string) => ['body', 'anchor', k];
  if (typeof value !== 'object' || Array.isArray(value)) throw bad('invalid_anchor', ['body', 'anchor'], 'anchor must be an object or null.');
  const a = value as Record<string, unknown>;
  for (const k of Object.keys(a)) if (!ANCHOR_KEYS.includes(k)) throw bad('unknown_field', loc(k), `Unknown anchor field ${k}.`);
  for (const k of ANCHOR_KEYS) if (!Object.hasOwn(a, k)) throw bad('missing_field', loc(k), `Anchor field ${k} is required.`);
  if (a.page_basis !== 'physical' && a.page_basis !== 'logical') throw bad('invalid_value', loc('page_basis'), 'page_basis must be physical or logical.');
  for (const k of ['page', 'start', 'end']) {
    const n = a[k];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < (k === 'page' ? 1 : 0)) throw bad('invalid_integer', loc(k), `${k} must be an integer of at least ${k === 'page' ? 1 : 0}.`);
  }
  if (typeof a.extraction_contract !== 'string' || a.extraction_contract.length === 0 || a.extraction_contract.length > 200) throw bad('invalid_string', loc('extraction_contract'), 'extraction_contract must name a contract.');
  if (typeof a.page_sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(a.page_sha256)) throw bad('invalid_string', loc('page_sha256'), 'page_sha256 must be 64 lowercase hex digits.');
  if (typeof a.quote !== 'string') throw bad('invalid_string', loc('quote'), 'quote must be a string.');
  return a as unknown as AnchorInput;
}

/** The bundle selection: an array of {file_id, version_id}. */
function parseSelection(value: unknown): VersionSelector[] {
  if (!Array.isArray(value)) throw bad('invalid_selection', ['body', 'files'], 'files must be an array of {file_id, version_id}.');
  return value.map((item, i) => {
    const loc = ['body', 'files', i];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw bad('invalid_selection', loc, 'Each selected file is an object {file_id, version_id}.');
    const keys = Object.keys(item).sort().join(',');
    if (keys !== 'file_id,version_id') throw bad('invalid_selection', loc, 'Each selected file has exactly file_id and version_id.');
    const { file_id, version_id } = item as Record<string, unknown>;
    if (typeof file_id !== 'string' || !isUuid4(file_id)) throw bad('invalid_uuid', [...loc, 'file_id'], 'file_id must be a canonical lowercase UUID.');
    if (typeof version_id !== 'string' || !isUuid4(version_id)) throw bad('invalid_uuid', [...loc, 'version_id'], 'version_id must be a canonical lowercase UUID.');
    return { fileId: file_id, versionId: version_id };
  });
}

function fileResponse(path: string, size: number, headers: Record<string, string>, release: () => void): Response {
  const stream = fs.createReadStream(path);
  let released = false;
  const once = () => {
    if (!released) {
      released = true;
      release();
    }
  };
  stream.once('close', once);
  stream.once('error', once);
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    status: 200,
    headers: { 'cache-control': NO_STORE, 'x-content-type-options': 'nosniff', 'content-length': String(size), ...headers },
  });
}

export const evidenceRoutes: RouteDef[] = [
  evidenceRoute('GET', P, (event, { ctx }) => {
    const q = strictQuery(event, { ...VAULT, ...PAGING });
    return { body: listProjects(ctx, { expectedVaultId: q.expected_vault_id as string, ...paging(q) }) };
  }),

  evidenceRoute('POST', P, async (event, deps) => {
    strictQuery(event, {});
    const b = await strictJsonBody(event, { ...VAULT, name: TEXT(10_000) }, jsonLimit(deps));
    return { status: 201, body: createProject(deps.ctx, { expectedVaultId: b.expected_vault_id as string, name: b.name as string }) };
  }),

  evidenceRoute('GET', `${P}/{project_id}`, (event, { ctx }, params) => {
    const q = strictQuery(event, VAULT);
    return { body: showProject(ctx, projectRef(q, params)) };
  }),

  evidenceRoute('PATCH', `${P}/{project_id}`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await strictJsonBody(event, { ...VAULT, ...REVISION, name: TEXT(10_000) }, jsonLimit(deps));
    return { body: renameProject(deps.ctx, { ...projectRef(b, params), expectedRevision: b.expected_revision as number, name: b.name as string }) };
  }),

  evidenceRoute('GET', `${P}/{project_id}/files`, (event, { ctx }, params) => {
    const q = strictQuery(event, { ...VAULT, ...PAGING });
    return { body: listMembers(ctx, { ...projectRef(q, params), ...paging(q) }) };
  }),

  evidenceRoute('POST', `${P}/{project_id}/files`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await strictJsonBody(event, { ...VAULT, ...REVISION, file_id: { required: true, kind: 'uuid' }, version_id: { required: true, kind: 'uuid' } }, jsonLimit(deps));
    const receipt = addMember(deps.ctx, { ...projectRef(b, params), expectedRevision: b.expected_revision as number, fileId: b.file_id as string, versionId: b.version_id as string });
    return { status: receipt.changed ? 201 : 200, body: receipt };
  }),

  evidenceRoute('DELETE', `${P}/{project_id}/files/{file_id}`, (event, { ctx }, params) => {
    const q = strictQuery(event, { ...VAULT, ...REVISION, version_id: { required: true, kind: 'uuid' } });
    const fileId = uuidParam(params, 'file_id');
    return { body: removeMember(ctx, { ...projectRef(q, params), expectedRevision: q.expected_revision as number, fileId, versionId: q.version_id as string }) };
  }),

  evidenceRoute('GET', `${P}/{project_id}/notes`, (event, { ctx }, params) => {
    const q = strictQuery(event, { ...VAULT, ...PAGING, file_id: { required: false, kind: 'uuid' }, version_id: { required: false, kind: 'uuid' } });
    if ((q.file_id === undefined) !== (q.version_id === undefined)) {
      throw bad('file_filter_incomplete', ['query', q.file_id === undefined ? 'file_id' : 'version_id'], 'Filter notes by file_id together with its exact version_id.');
    }
    const file = q.file_id === undefined ? undefined : { fileId: q.file_id as string, versionId: q.version_id as string };
    return { body: listNotes(ctx, { ...projectRef(q, params), ...paging(q), file }) };
  }),

  evidenceRoute('POST', `${P}/{project_id}/notes`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await strictJsonBody(
      event,
      {
        ...VAULT,
        ...REVISION,
        file_id: { required: true, kind: 'uuid' },
        version_id: { required: true, kind: 'uuid' },
        kind: { required: true, kind: 'string', min: 1, max: 20 },
        body: TEXT(1_000_000),
        anchor: { required: true, kind: 'raw' },
      },
      jsonLimit(deps),
    );
    if (b.kind !== 'plain' && b.kind !== 'passage') throw bad('invalid_value', ['body', 'kind'], 'kind must be plain or passage.');
    const anchor = parseAnchor(b.anchor);
    const body = await createNote(deps.ctx, {
      ...projectRef(b, params),
      expectedRevision: b.expected_revision as number,
      fileId: b.file_id as string,
      versionId: b.version_id as string,
      kind: b.kind,
      body: b.body as string,
      anchor,
      signal: event.req.signal,
    });
    return { status: 201, body };
  }),

  evidenceRoute('PATCH', `${P}/{project_id}/notes/{note_id}`, async (event, deps, params) => {
    strictQuery(event, {});
    const noteId = noteIdParam(params);
    const b = await strictJsonBody(event, { ...VAULT, ...REVISION, expected_note_revision: { required: true, kind: 'int', min: 1 }, body: TEXT(1_000_000) }, jsonLimit(deps));
    return {
      body: editNote(deps.ctx, { ...projectRef(b, params), expectedRevision: b.expected_revision as number, noteId, expectedNoteRevision: b.expected_note_revision as number, body: b.body as string }),
    };
  }),

  evidenceRoute('GET', `${P}/{project_id}/reader/{file_id}`, async (event, { ctx }, params) => {
    const q = strictQuery(event, {
      ...VAULT,
      version_id: { required: true, kind: 'uuid' },
      page: { required: true, kind: 'int', min: 1, max: evidenceOf(ctx).limits.pdfPages },
      representation: { required: false, kind: 'string', min: 1, max: 10 },
    });
    const representation = q.representation ?? 'text';
    if (representation !== 'text' && representation !== 'pdf') throw bad('invalid_value', ['query', 'representation'], 'representation must be text or pdf.');
    const req = { ...projectRef(q, params), fileId: uuidParam(params, 'file_id'), versionId: q.version_id as string, page: q.page as number, signal: event.req.signal };
    if (representation === 'text') return { body: await readPage(ctx, req) };
    const pdf = readPdfBytes(ctx, req);
    return new Response(new Uint8Array(pdf.bytes), {
      status: 200,
      headers: {
        'content-type': 'application/pdf',
        'content-length': String(pdf.bytes.length),
        'cache-control': NO_STORE,
        'x-content-type-options': 'nosniff',
        'x-svc-vault': pdf.vaultId,
        'x-svc-project': pdf.projectId,
        'x-svc-sha256': pdf.file.sha256,
        'x-svc-page': String(req.page),
      },
    });
  }),

  evidenceRoute('POST', `${P}/{project_id}/bundle`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await strictJsonBody(event, { ...VAULT, ...REVISION, files: { required: true, kind: 'raw' }, include_files: { required: false, kind: 'bool' } }, jsonLimit(deps));
    const files = parseSelection(b.files);
    const bundle = await buildBundle(deps.ctx, {
      ...projectRef(b, params),
      expectedRevision: b.expected_revision as number,
      files,
      includeFiles: (b.include_files as boolean | undefined) ?? false,
      signal: event.req.signal,
    });
    return fileResponse(bundle.path, bundle.byteSize, {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="${bundle.filename}"`,
      'x-svc-evidence-contract': 'evidence-bundle/v1',
      'x-svc-vault': bundle.vaultId,
      'x-svc-project': bundle.projectId,
      'x-svc-bundle': bundle.bundleId,
      'x-svc-bundle-mode': bundle.mode,
      'x-svc-sha256': bundle.sha256,
    }, bundle.release);
  }),
];

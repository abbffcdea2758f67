/**
 * The twelve Evidence routes (spec 2, prefix /api/evidence/projects). Each
 * runs the Library guard first (via libraryRoute), reads its strict query and
 * body with the schemas of src/util/strict-schemas.ts, calls one service
 * function and answers no-store, refusals included. The bundle and the pdf
 * representation answer bytes.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import * as v from 'valibot';
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
  pageHighlights,
  readPage,
  readPdfBytes,
  removeMember,
  renameProject,
  showProject,
  warmPdfReader,
} from '../../src/evidence/index.js';
import { SvcError } from '../../src/errors.js';
import { bool, closedObject, jsonBody, jsonInt, queryInt, say, text, uuid } from '../../src/util/strict-schemas.js';
import { readValid } from '../body.js';
import { libraryRoute } from '../library-guard.js';
import { strictParam, strictQuery, uuidParam } from '../params.js';
import type { AppDeps, RouteDef } from '../registry.js';

const NO_STORE = 'no-store';
const P = '/api/evidence/projects';

const VAULT = { expected_vault_id: uuid() };
const REVISION = { expected_revision: jsonInt(1) };
const PAGING = { after_id: v.optional(queryInt(0)), through_id: v.optional(queryInt(0)), limit: v.optional(queryInt(1, 50)) };
const VERSION = { file_id: uuid(), version_id: uuid() };

/** A text field of kind and representation: a bounded string, then one of a closed list. */
const choice = <const T extends readonly string[]>(max: number, options: T, message: string) => v.pipe(text(1, max), v.picklist(options, say('invalid_value', message)));

const notePosition = (min: number) => {
  const message = say('invalid_integer', `{name} must be an integer of at least ${min}.`);
  return v.pipe(v.number(message), v.safeInteger(message), v.minValue(min, message));
};
const ANCHOR_TEXT = say('invalid_string', '{name} must be a string.');

/** The passage anchor: exactly its seven fields, each of its type; null for a plain note. */
const Anchor = v.nullable(
  closedObject(
    {
      page_basis: v.picklist(['physical', 'logical'], say('invalid_value', 'page_basis must be physical or logical.')),
      page: notePosition(1),
      extraction_contract: v.pipe(v.string(ANCHOR_TEXT), v.minLength(1, say('invalid_string', 'extraction_contract must name a contract.')), v.maxLength(200, say('invalid_string', 'extraction_contract must name a contract.'))),
      page_sha256: v.pipe(v.string(ANCHOR_TEXT), v.regex(/^[0-9a-f]{64}$/, say('invalid_string', 'page_sha256 must be 64 lowercase hex digits.'))),
      start: notePosition(0),
      end: notePosition(0),
      quote: v.string(say('invalid_string', 'quote must be a string.')),
    },
    {
      notObject: say('invalid_anchor', 'anchor must be an object or null.'),
      unknown: say('unknown_field', 'Unknown anchor field {name}.'),
      missing: say('missing_field', 'Anchor field {name} is required.'),
      keysFirst: 'per_key',
    },
  ),
);

const SELECTED = say('invalid_selection', 'Each selected file has exactly file_id and version_id.');
/** The bundle selection: an array of {file_id, version_id}. */
const Selection = v.array(
  closedObject(VERSION, { notObject: say('invalid_selection', 'Each selected file is an object {file_id, version_id}.'), unknown: SELECTED, missing: SELECTED, keysFirst: 'whole' }),
  say('invalid_selection', 'files must be an array of {file_id, version_id}.'),
);

const NOTE_ID = say('invalid_integer', 'note_id must be a positive integer.');
const noteIdParam = (params: Record<string, string>) => strictParam(params, 'note_id', v.pipe(v.string(NOTE_ID), v.regex(/^[1-9][0-9]{0,14}$/, NOTE_ID), v.transform(Number)));

const strictBody = (deps: AppDeps) => ({ strict: true, limit: evidenceOf(deps.ctx).limits.jsonBodyBytes });

const paging = (q: { after_id?: number; through_id?: number; limit?: number }) => ({ afterId: q.after_id, throughId: q.through_id, limit: q.limit });
const projectRef = (q: { expected_vault_id: string }, params: Record<string, string>) => ({ expectedVaultId: q.expected_vault_id, projectId: uuidParam(params, 'project_id') });

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
  libraryRoute('GET', P, (event, { ctx }) => {
    const q = strictQuery(event, { ...VAULT, ...PAGING });
    return listProjects(ctx, { expectedVaultId: q.expected_vault_id, ...paging(q) });
  }),

  libraryRoute('POST', P, async (event, deps) => {
    strictQuery(event, {});
    const b = await readValid(event, jsonBody({ ...VAULT, name: text(0, 10_000) }), strictBody(deps));
    const project = createProject(deps.ctx, { expectedVaultId: b.expected_vault_id, name: b.name });
    event.res.status = 201;
    return project;
  }),

  libraryRoute('GET', `${P}/{project_id}`, (event, { ctx }, params) => {
    const ref = projectRef(strictQuery(event, VAULT), params);
    const shown = showProject(ctx, ref);
    warmPdfReader(ctx, ref);
    return shown;
  }),

  libraryRoute('PATCH', `${P}/{project_id}`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await readValid(event, jsonBody({ ...VAULT, ...REVISION, name: text(0, 10_000) }), strictBody(deps));
    return renameProject(deps.ctx, { ...projectRef(b, params), expectedRevision: b.expected_revision, name: b.name });
  }),

  libraryRoute('GET', `${P}/{project_id}/files`, (event, { ctx }, params) => {
    const q = strictQuery(event, { ...VAULT, ...PAGING });
    return listMembers(ctx, { ...projectRef(q, params), ...paging(q) });
  }),

  libraryRoute('POST', `${P}/{project_id}/files`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await readValid(event, jsonBody({ ...VAULT, ...REVISION, ...VERSION }), strictBody(deps));
    const ref = projectRef(b, params);
    const receipt = addMember(deps.ctx, { ...ref, expectedRevision: b.expected_revision, fileId: b.file_id, versionId: b.version_id });
    warmPdfReader(deps.ctx, ref);
    event.res.status = receipt.changed ? 201 : 200;
    return receipt;
  }),

  libraryRoute('DELETE', `${P}/{project_id}/files/{file_id}`, (event, { ctx }, params) => {
    const q = strictQuery(event, { ...VAULT, expected_revision: queryInt(1), version_id: uuid() });
    const fileId = uuidParam(params, 'file_id');
    return removeMember(ctx, { ...projectRef(q, params), expectedRevision: q.expected_revision, fileId, versionId: q.version_id });
  }),

  libraryRoute('GET', `${P}/{project_id}/notes`, (event, { ctx }, params) => {
    const q = strictQuery(event, { ...VAULT, ...PAGING, file_id: v.optional(uuid()), version_id: v.optional(uuid()) });
    const { file_id: fileId, version_id: versionId } = q;
    if (fileId === undefined && versionId === undefined) return listNotes(ctx, { ...projectRef(q, params), ...paging(q) });
    if (fileId === undefined || versionId === undefined) {
      throw new SvcError(422, 'file_filter_incomplete', 'Filter notes by file_id together with its exact version_id.', { loc: ['query', fileId === undefined ? 'file_id' : 'version_id'] });
    }
    return listNotes(ctx, { ...projectRef(q, params), ...paging(q), file: { fileId, versionId } });
  }),

  libraryRoute('POST', `${P}/{project_id}/notes`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await readValid(
      event,
      jsonBody({ ...VAULT, ...REVISION, ...VERSION, kind: choice(20, ['plain', 'passage'], 'kind must be plain or passage.'), body: text(0, 1_000_000), anchor: Anchor }),
      strictBody(deps),
    );
    const note = await createNote(deps.ctx, {
      ...projectRef(b, params),
      expectedRevision: b.expected_revision,
      fileId: b.file_id,
      versionId: b.version_id,
      kind: b.kind,
      body: b.body,
      anchor: b.anchor,
      signal: event.req.signal,
    });
    event.res.status = 201;
    return note;
  }),

  libraryRoute('PATCH', `${P}/{project_id}/notes/{note_id}`, async (event, deps, params) => {
    strictQuery(event, {});
    const noteId = noteIdParam(params);
    const b = await readValid(event, jsonBody({ ...VAULT, ...REVISION, expected_note_revision: jsonInt(1), body: text(0, 1_000_000) }), strictBody(deps));
    return editNote(deps.ctx, { ...projectRef(b, params), expectedRevision: b.expected_revision, noteId, expectedNoteRevision: b.expected_note_revision, body: b.body });
  }),

  libraryRoute('GET', `${P}/{project_id}/reader/{file_id}`, async (event, { ctx }, params) => {
    const q = strictQuery(event, {
      ...VAULT,
      version_id: uuid(),
      page: queryInt(1, evidenceOf(ctx).limits.pdfPages),
      representation: v.optional(choice(10, ['text', 'pdf'], 'representation must be text or pdf.')),
    });
    const req = { ...projectRef(q, params), fileId: uuidParam(params, 'file_id'), versionId: q.version_id, page: q.page, signal: event.req.signal };
    if ((q.representation ?? 'text') === 'text') {
      // The saved passages of this page travel with it, as the window's reader highlights them (as `svc evidence read` does).
      const page = await readPage(ctx, req);
      return { ...page, ...pageHighlights(ctx, { ...projectRef(q, params), file: { fileId: req.fileId, versionId: req.versionId } }, page) };
    }
    const pdf = await readPdfBytes(ctx, req);
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

  libraryRoute('POST', `${P}/{project_id}/bundle`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await readValid(event, jsonBody({ ...VAULT, ...REVISION, files: Selection, include_files: v.optional(bool()) }), strictBody(deps));
    const bundle = await buildBundle(deps.ctx, {
      ...projectRef(b, params),
      expectedRevision: b.expected_revision,
      files: b.files.map((f) => ({ fileId: f.file_id, versionId: f.version_id })),
      includeFiles: b.include_files ?? false,
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

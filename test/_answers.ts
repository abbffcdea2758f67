/**
 * Selected-answer test helpers: an Evidence server with answer limits (and a
 * fake agent spawner) configured, a project holding text and PDF members,
 * and a preview body builder.
 */
import { configureAnswers, type AnswersOptions } from '../src/answers/service.js';
import type { EvidenceLimits } from '../src/evidence/index.js';
import { startEvidenceServer, type EvidenceServer, type FileRef } from './_evidence.js';
import { makePdf } from './_pdf.js';

export const TEXT = 'Alpha beta gamma.\nSleep helps memory consolidation in adults.\nDelta 𝐀 epsilon.\n';

export interface AnswerServer extends EvidenceServer {
  projectId: string;
  files: Record<string, FileRef>;
  runtimeId: string;
  A(suffix?: string): string;
  body(overrides?: Record<string, unknown>): Promise<Record<string, unknown>>;
  preview(overrides?: Record<string, unknown>): ReturnType<EvidenceServer['call']>;
  note(f: FileRef, body: string): Promise<number>;
}

export const CHOICES = { version: 1, runtime: 'api_key', provider: 'openai', model: 'gpt-test', effort: null };

export async function startAnswerServer(options: { answers?: AnswersOptions; evidence?: Partial<EvidenceLimits>; pdfs?: Record<string, Buffer>; env?: Record<string, string> } = {}): Promise<AnswerServer> {
  const s = await startEvidenceServer({ limits: { pdfTimeoutMs: 5000, ...options.evidence } });
  configureAnswers(s.t.ctx, options.answers ?? {});
  const projectId = (await s.project('Answers')).project_id;
  const files: Record<string, FileRef> = {};
  files.text = await s.file('notes.txt', TEXT);
  await s.add(projectId, files.text);
  const pdfs = options.pdfs ?? { paper: makePdf(['Page one: results', 'Second page words', { image: true }]) };
  for (const [name, bytes] of Object.entries(pdfs)) {
    files[name] = await s.file(`${name}.pdf`, bytes);
    await s.add(projectId, files[name]!);
  }
  const A = (suffix = '') => `${s.P(projectId)}${suffix}`;
  const body = async (overrides: Record<string, unknown> = {}) => ({
    expected_vault_id: s.vaultId,
    expected_runtime_id: s.t.ctx.runtimeId,
    expected_revision: await s.revision(projectId),
    selections: [{ file_id: files.text!.file_id, version_id: files.text!.version_id, segments: [{ kind: 'page', page: 1 }] }],
    instruction: 'What helps memory?',
    mode: 'answer',
    choices: CHOICES,
    ...overrides,
  });
  return {
    ...s,
    projectId,
    files,
    runtimeId: s.t.ctx.runtimeId,
    A,
    body,
    async preview(overrides = {}) {
      return s.call('POST', A('/answer-previews'), await body(overrides));
    },
    async note(f, text) {
      const r = await s.call('POST', A('/notes'), {
        expected_vault_id: s.vaultId,
        expected_revision: await s.revision(projectId),
        file_id: f.file_id,
        version_id: f.version_id,
        kind: 'plain',
        body: text,
        anchor: null,
      });
      if (r.status !== 201) throw new Error(`note: ${r.status} ${r.text}`);
      return r.json().note.note_id as number;
    },
  };
}

export const sel = (f: FileRef, segments: unknown[]) => ({ file_id: f.file_id, version_id: f.version_id, segments });

/**
 * What the browser tests of selected answers and the assistant share, over
 * the window harness (test/_window.ts): `svc window` whose OpenAI connection
 * is a loopback fake model speaking the real streaming wire format
 * (test/_fake-model.ts) and whose agent CLI is the fake that emits real
 * stream-json lines and asks for permission through the relay
 * (test/_assistant.ts); a Library vault with a text file and a two-page PDF
 * pinned in one Evidence project, made through the API with the Library
 * headers the page's origin sends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TEXT } from './_answers.js';
import { writeFakeAgent } from './_assistant.js';
import { startFakeModel, type FakeServer } from './_fake-model.js';
import { makePdf } from './_pdf.js';
import { libraryRequest, okJson, startWindow, windowDirs, type BrowserWindow } from './_window.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
export interface AnswersWindow extends BrowserWindow {
  model: FakeServer;
  vaultId: string;
  projectId: string;
  files: { text: { file_id: string; version_id: string }; pdf: { file_id: string; version_id: string } };
  /** A request to the backend as the page sends it (renderer Origin, Library header); throws unless 2xx. */
  lib(method: string, path: string, body?: unknown): Promise<any>;
}

export async function startAnswersWindow(executablePath: string): Promise<AnswersWindow> {
  const model = await startFakeModel('openai');
  const dirs = windowDirs();
  const win = await startWindow(executablePath, { dirs, env: { SVC_AI_OPENAI_URL: model.url, SVC_AGENT_CLI: writeFakeAgent(path.join(dirs.root, 'agent')) }, closes: [model] });
  const { api } = win;
  const lib = async (method: string, p: string, body?: unknown) => okJson(await libraryRequest(win, method, p, { body }), method, p);
  await api('PUT', '/api/credentials/openai_api_key', { value: 'sk-window-answers-test-1234' });
  const parent = path.join(dirs.root, 'vault-parent');
  fs.mkdirSync(parent);
  const vaultId = (await lib('POST', '/api/library/vault', { parent_directory: parent })).vault.vault_id as string;
  const upload = async (name: string, bytes: Buffer | string) => {
    const q = `expected_vault_id=${vaultId}&filename=${encodeURIComponent(name)}`;
    const r = await libraryRequest(win, 'POST', `/api/library/files?${q}`, { bytes });
    if (r.status !== 201) throw new Error(`import ${name}: ${r.status} ${r.text}`);
    const f = r.json().file;
    return { file_id: f.file_id as string, version_id: f.version_id as string };
  };
  const text = await upload('sleep-notes.txt', TEXT);
  const pdf = await upload('paper.pdf', makePdf(['Page one: results of the trial', 'Second page: sleep helps memory in older adults']));
  const projectId = (await lib('POST', '/api/evidence/projects', { expected_vault_id: vaultId, name: 'Sleep and memory' })).project.project_id as string;
  let revision = 1;
  for (const f of [text, pdf]) revision = (await lib('POST', `/api/evidence/projects/${projectId}/files`, { expected_vault_id: vaultId, expected_revision: revision, ...f })).project.revision;
  return { ...win, model, vaultId, projectId, files: { text, pdf }, lib };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

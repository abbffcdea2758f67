/**
 * `svc answer …`: selected-evidence answers through the running server (the
 * answer runs there). preview prints what would be sent; send needs the hash
 * of that preview and a confirmation (a prompt on a terminal, --yes
 * otherwise); watch follows the events; export writes the ZIP or HTML.
 */
import type { Command } from 'commander';
import { isUuid4 } from '../../src/random.js';
import { connectAnswers, type AnswerClient } from './client.js';
import { projectRef } from '../evidence/args.js';
import { answerText, historyText, previewText } from './format.js';
import { promptCancelled } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { enumFlag, intFlag, given, usageError, uuidArg } from '../lib/flags.js';
import { emit, type Io } from '../lib/io.js';
import { followAnswer } from './watch.js';
import { inCliWords, typedProject } from '../lib/refusals.js';
import { parseSelect, resolveVersions } from './select.js';
import { checkOutputFile, replaceableWithForce, writeOutputFile } from '../lib/output-file.js';
import { choicesFromFlags } from './choices.js';
import { nextPageHint } from '../lib/hints.js';

const uuid = (value: string, what: string) => uuidArg(value, what, isUuid4);
const collect = (value: string, previous: string[] = []) => [...previous, value];
const PROJECT = 'its ID, PROJECT_ID or exact NAME from `svc evidence list`';
/** The project's routes, once the client can name its project_id (checked first with projectRef, so a bad word is exit 2 with no server). */
const projectPath = (c: AnswerClient, project: string) => `/api/evidence/projects/${c.projectIdOf(projectRef(project))}`;

export function register(program: Command, io: Io): void {
  const cmd = program.command('answer').description('selected-evidence answers: preview, send, watch, cancel, list, show, export');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- commander passes positional arguments untyped
  // Flags are checked before the server is looked up, so a usage error is exit 2 even with no server.
  const action = (fn: (connect: () => Promise<AnswerClient>, ...args: any[]) => unknown) => async (...args: unknown[]): Promise<void> => {
    try {
      await withContext(io, async (ctx) => fn(() => connectAnswers(ctx), ...args));
    } catch (err) {
      throw inCliWords('answer', err, typedProject(args));
    }
  };

  cmd.command('preview').description('assemble what would be sent (never calls a model) and print it to read').argument('<project>', PROJECT)
    .requiredOption('--select <file[@version]:page[:start-end]>', 'a page or codepoint passage to send (repeat)', collect)
    .option('--note <id>', 'a saved note of a selected file to send (repeat)', collect)
    .requiredOption('--instruction <text>', 'what to ask (1 to 4,000 codepoints)')
    .option('--mode <mode>', 'answer or briefing', 'answer')
    .requiredOption('--runtime <runtime>', 'agent_cli or api_key').requiredOption('--provider <id>', 'the connection\'s provider')
    .option('--model <id>', 'the model to ask for (API runtimes: default the provider\'s default model)').option('--effort <level>', 'reasoning effort (CLI runtimes)').option('--revision <n>', 'the project revision you saw')
    .action(action(async (connect, project: string, o: { select: string[]; note?: string[]; instruction: string; mode: string; runtime: string; provider: string; model?: string; effort?: string; revision?: string }) => {
      projectRef(project);
      const pinnedRevision = intFlag(o.revision, '--revision', { min: 1, max: Number.MAX_SAFE_INTEGER });
      const selects = o.select.map(parseSelect);
      const noteIds = (o.note ?? []).map((n) => intFlag(n, '--note', { min: 1, max: Number.MAX_SAFE_INTEGER }));
      const mode = enumFlag(o.mode, '--mode', ['answer', 'briefing'] as const);
      const runtime = enumFlag(o.runtime, '--runtime', ['agent_cli', 'api_key'] as const)!;
      const choices = choicesFromFlags({ runtime, provider: o.provider, model: o.model, effort: o.effort });
      const c = await connect();
      const base = projectPath(c, project);
      const revision = pinnedRevision ?? (await c.json('GET', `${base}?expected_vault_id=${c.vaultId}`)).project.revision;
      const selections = await resolveVersions(c, base, selects);
      const body = {
        expected_vault_id: c.vaultId, expected_runtime_id: c.runtimeId, expected_revision: revision, selections, note_ids: noteIds,
        instruction: o.instruction, mode, choices,
      };
      const preview = await c.json('POST', `${base}/answer-previews`, body);
      emit(io, preview, () => previewText(preview));
    }));

  cmd.command('send').description('send a previewed request (hash-bound consent)').argument('<project>', PROJECT).argument('<preview_id>', 'the preview id `svc answer preview` printed')
    .requiredOption('--sha <request_sha256>', 'the request hash the preview printed').option('-y, --yes', 'confirm without a prompt (required when not on a terminal)').option('--no-watch', 'only admit it (it runs once a subscriber attaches: svc answer watch within 30 s)')
    .action(action(async (connect, project: string, previewId: string, o: { sha: string; yes?: boolean; watch?: boolean }) => {
      projectRef(project);
      if (!/^[0-9a-f]{64}$/.test(o.sha)) throw usageError(`--sha must be the 64 lowercase hex digits of the preview's request hash, not ${given(o.sha)}.`);
      uuid(previewId, 'preview_id');
      if (!o.yes) {
        if (!io.stdinIsTTY || !io.stdoutIsTTY) throw usageError('Sending selected evidence to a model needs consent: add --yes when not on a terminal.', 'confirmation_required');
        const { confirm, isCancel } = await import('@clack/prompts');
        const answer = await confirm({ message: `Send request ${o.sha.slice(0, 12)}… (preview ${previewId}) to the chosen model?`, initialValue: false });
        if (isCancel(answer)) throw promptCancelled('Nothing was sent.');
        if (answer !== true) {
          emit(io, { sent: false }, () => 'Nothing was sent.');
          return;
        }
      }
      const c = await connect();
      const body = { expected_vault_id: c.vaultId, expected_runtime_id: c.runtimeId, preview_id: previewId, request_sha256: o.sha, confirmed: true };
      const base = projectPath(c, project);
      const { answer } = await c.json('POST', `${base}/answers`, body);
      // An answer runs once its one subscriber attaches, so sending follows it unless told not to.
      if (o.watch !== false) return followAnswer(c, io, base, answer.answer_id);
      emit(io, answer, () => `${answer.answer_id}: ${answer.state}\nIt runs once followed, within 30 s: svc answer watch ${project} ${answer.answer_id}`);
    }));

  cmd.command('watch').description('follow an answer\'s events until it ends (Ctrl-C cancels it)').argument('<project>', PROJECT).argument('<answer_id>', 'the ANSWER_ID `svc answer list PROJECT` prints')
    .action(action(async (connect, project: string, answerId: string) => {
      projectRef(project);
      uuid(answerId, 'answer_id');
      const c = await connect();
      await followAnswer(c, io, projectPath(c, project), answerId);
    }));

  cmd.command('cancel').description('cancel an admitted or running answer of this server').argument('<project>', PROJECT).argument('<answer_id>', 'the ANSWER_ID `svc answer list PROJECT` prints')
    .action(action(async (connect, project: string, answerId: string) => {
      projectRef(project);
      const id = uuid(answerId, 'answer_id');
      const c = await connect();
      const path = `${projectPath(c, project)}/answers/${id}/cancel`;
      const { answer } = await c.json('POST', path, { expected_vault_id: c.vaultId, expected_runtime_id: c.runtimeId });
      emit(io, answer, () => `${answerId}: ${answer.state}`);
    }));

  cmd.command('list').description('a project\'s answers, oldest first').argument('<project>', PROJECT).option('--after <id>', 'ids above this').option('--through <id>', 'the ceiling of the first page').option('--limit <n>', 'page size, 1 to 50')
    .action(action(async (connect, project: string, o: { after?: string; through?: string; limit?: string }) => {
      const q = new URLSearchParams();
      const big = { min: 0, max: Number.MAX_SAFE_INTEGER };
      for (const [key, raw, flag, bounds] of [['after_id', o.after, '--after', big], ['through_id', o.through, '--through', big], ['limit', o.limit, '--limit', { min: 1, max: 50 }]] as const) {
        const n = intFlag(raw, flag, bounds);
        if (n !== undefined) q.set(key, String(n));
      }
      projectRef(project);
      const c = await connect();
      q.set('expected_vault_id', c.vaultId);
      const page = await c.json('GET', `${projectPath(c, project)}/answers?${q}`);
      emit(io, page, () => historyText(page, project));
      if (page.has_more && !io.json) io.err(nextPageHint(`svc answer list ${project}`, [['--limit', o.limit], ['--through', page.through_id], ['--after', page.next_after_id]]));
    }));

  cmd.command('show').description('a saved answer with its request and result').argument('<project>', PROJECT).argument('<answer_id>', 'the ANSWER_ID `svc answer list PROJECT` prints')
    .action(action(async (connect, project: string, answerId: string) => {
      projectRef(project);
      const id = uuid(answerId, 'answer_id');
      const c = await connect();
      const path = `${projectPath(c, project)}/answers/${id}`;
      const { answer } = await c.json('GET', `${path}?expected_vault_id=${c.vaultId}`);
      emit(io, answer, () => answerText(answer));
    }));

  cmd.command('export').description('write a saved answer as ZIP (answer.json, answer.md, evidence.json) or one static HTML file').argument('<project>', PROJECT).argument('<answer_id>', 'the ANSWER_ID `svc answer list PROJECT` prints')
    .requiredOption('--format <format>', 'zip or html').requiredOption('-o, --output <file>', 'the file to write').option('--force', 'replace an existing file')
    .action(action(async (connect, project: string, answerId: string, o: { format: string; output: string; force?: boolean }) => {
      const format = enumFlag(o.format, '--format', ['zip', 'html'] as const)!;
      projectRef(project);
      const id = uuid(answerId, 'answer_id');
      // Refused before the answer is fetched: an existing file, a link, a missing folder.
      checkOutputFile(o.output, replaceableWithForce(o.force));
      const c = await connect();
      const at = `${projectPath(c, project)}/answers/${id}/export`;
      const q = new URLSearchParams({ expected_vault_id: c.vaultId, format });
      const { bytes, headers } = await c.bytes(`${at}?${q}`);
      const output = writeOutputFile(o.output, bytes, replaceableWithForce(o.force));
      const r = { output, format, byte_size: bytes.length, sha256: headers.get('x-svc-sha256') ?? (await import('../../src/answers/canonical-json.js')).sha256Hex(bytes) };
      emit(io, r, () => `Wrote ${o.output} (${format}, ${r.byte_size} bytes, sha256 ${r.sha256})`);
    }));
}

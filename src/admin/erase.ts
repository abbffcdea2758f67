/**
 * The danger zone: nine erase scopes, each naming what it erases and what it
 * keeps. Every scope is confirm-gated: the body's confirm must be the scope's
 * own name (for example "erase-corpus"). Tables are erased by category (see
 * tables.ts) in one transaction; credentials by kind; report files with the
 * executions they belong to. Vault bytes are never deleted by any scope.
 */
import { dropIndex } from '../similarity/index-build.js';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import { reportsDir } from '../executions/report.js';
import { eraseCategories } from './repo.js';
import { runningExecutions } from '../executions/repo.js';
import { claimedJobs, describeHolder, jobHolder, TURN_PREFIX, type JobName } from '../claims/jobs.js';
import { turnRegistry } from '../assistant/registry.js';
import { isLiveRun } from '../executions/recovery.js';
import type { EraseResult, EraseScope, EraseScopeView, TableCategory } from '../wire/admin.js';

export const ERASE_SCOPES = [
  'erase-ai-keys',
  'erase-repo-keys',
  'erase-configs',
  'erase-executions',
  'erase-execution-data',
  'erase-corpus',
  'erase-app-data',
  'reset-settings',
  'factory-reset',
] as const satisfies readonly EraseScope[];

type KeyKinds = 'all' | string[];

interface ScopeDef {
  categories: TableCategory[];
  keys: KeyKinds | null;
  reports: boolean;
  /** What goes, in words (svc erase --help); `categories`, `keys` and `reports` are what does it. */
  erases: string;
  keeps: string;
}

export const SCOPES: Record<EraseScope, ScopeDef> = {
  'erase-ai-keys': { categories: [], keys: ['ai'], reports: false, erases: 'the stored AI provider keys', keeps: 'everything else: repository, mail and cloud keys, settings, configurations, executions, papers' },
  'erase-repo-keys': { categories: [], keys: ['repository'], reports: false, erases: 'the stored repository (source) API keys', keeps: 'everything else: AI, mail and cloud keys, settings, configurations, executions, papers' },
  'erase-configs': { categories: ['configs'], keys: null, reports: false, erases: 'saved configurations, routines (their jobs, fire records and delivery destinations), watch profiles and watchdog mutes', keeps: 'executions (and their deliveries), papers, settings and keys' },
  'erase-executions': { categories: ['executions'], keys: null, reports: true, erases: 'executions (their sources, events, result lists and deliveries) and their report files', keeps: 'papers, configurations and routines, settings and keys' },
  'erase-execution-data': { categories: ['configs', 'executions'], keys: null, reports: true, erases: 'what the configs and executions scopes erase, together', keeps: 'papers, settings and keys' },
  'erase-corpus': { categories: ['corpus'], keys: null, reports: false, erases: 'the papers and what is derived from them: embeddings, links, facets, lifecycle records, profile matches, the reading queue, Library paper links', keeps: 'executions (their result lists empty), configurations and routines, settings and keys' },
  'erase-app-data': { categories: ['corpus', 'configs', 'executions', 'conversations'], keys: 'all', reports: true, erases: "papers, configurations and routines, executions and report files, the assistant's conversations and every stored key", keeps: "settings, the first-run card state and the Library's records" },
  'reset-settings': { categories: ['settings'], keys: 'all', reports: false, erases: 'every settings group (back to its defaults) and every stored key', keeps: 'configurations and routines, executions and papers' },
  'factory-reset': {
    categories: ['settings', 'app_state', 'configs', 'executions', 'corpus', 'library', 'conversations'],
    keys: 'all',
    reports: true,
    erases: "every secret, configuration, routine, execution, report file, setting and paper, the assistant's conversations, the first-run card state and the Library's records",
    keeps: 'only the backup and restore history and the bytes in the vault folder (the Library forgets its records)',
  },
};

/**
 * Every scope as a door shows it before anyone types its confirmation: the word `confirm` must
 * be, what it erases and what it keeps (GET /api/admin/erase-scopes; the window's danger zone).
 */
export function eraseScopesView(): EraseScopeView[] {
  return ERASE_SCOPES.map((scope) => ({ scope, confirm: scope, erases: SCOPES[scope].erases, keeps: SCOPES[scope].keeps }));
}

export function isEraseScope(name: string): name is EraseScope {
  return (ERASE_SCOPES as readonly string[]).includes(name);
}

/** Refuse unless `confirm` is exactly the expected word (the scope's name, "restore", …). */
export function requireConfirm(confirm: string, expected: string): void {
  if (confirm !== expected) {
    throw badRequest('confirmation_required', `This operation is irreversible; send confirm "${expected}" to go ahead.`, { expected_confirm: expected });
  }
}

/** The long corpus jobs an erase of papers waits for: job, what it is, how to stop it. */
const CORPUS_JOBS: [JobName, string, string][] = [
  ['links.scan', 'A link scan', 'stop it (svc links cancel) or wait'],
  ['embeddings.backfill', 'An embedding backfill', 'stop it (svc embed cancel) or wait'],
  ['embeddings.index', 'A vector index rebuild', 'wait for it'],
];

/** Erase one scope. @example eraseScope(ctx, 'erase-corpus', 'erase-corpus') */
export function eraseScope(ctx: Context, scope: EraseScope, confirm: string): EraseResult {
  requireConfirm(confirm, scope);
  const def = SCOPES[scope];
  const touchesRuns = def.categories.some((c) => c === 'executions' || c === 'corpus');
  // Only runs whose owner is alive count: a row left 'running' by a process killed outright would
  // otherwise block erasing until some server starts and marks it interrupted.
  const live = touchesRuns ? runningExecutions(ctx.db).filter((r) => isLiveRun(ctx, r)) : [];
  if (live.length) {
    throw conflict('executions_running', `Runs are in progress (${live.map((r) => r.id).join(', ')}); cancel them (\`svc executions cancel ID\`) or wait, before erasing executions or papers.`);
  }
  // A link scan, backfill or index rebuild (in any process) would write links, vectors or counts of the
  // papers being erased back after them, or mark a stale index ready: it is stopped first.
  if (def.categories.includes('corpus')) {
    for (const [job, what, stop] of CORPUS_JOBS) {
      const holder = jobHolder(ctx, job);
      if (holder) throw conflict('corpus_job_running', `${what} is running in ${describeHolder(holder)}; ${stop}, before erasing papers.`, { job, running_in: holder });
    }
  }
  const dir = def.reports ? reportsDir(ctx) : null; // before the settings that name it are erased
  // Running assistant turns are checked in the write transaction that erases, as deleting one
  // conversation does: a turn another process claims meanwhile is either seen (and the erase
  // refused) or claims after its conversation is gone; never a turn left writing into nothing.
  const rows = ctx.db
    .transaction(() => {
      if (def.categories.includes('conversations')) refuseRunningTurns(ctx);
      return eraseCategories(ctx.db, def.categories);
    })
    .immediate();
  let credentials: string[] = [];
  if (def.keys) {
    const before = ctx.credentials.statuses().filter((c) => c.status !== 'absent' && (def.keys === 'all' || def.keys!.includes(c.kind)));
    ctx.credentials.erase(def.keys === 'all' ? undefined : def.keys);
    credentials = before.map((c) => c.name);
  }
  const reportFiles = dir ? removeReportFiles(dir) : 0;
  // The vector index file is derived from the papers' vectors just erased (no build runs: refused above).
  if (def.categories.includes('corpus')) dropIndex(ctx);
  return { scope, erased: { categories: def.categories, rows, credentials, report_files: reportFiles }, keeps: def.keeps, erased_at_utc: ctx.nowIso() };
}

/** The refusal while a conversation's turn runs in any process (the reason a single delete gives). */
function refuseRunningTurns(ctx: Context): void {
  const registry = turnRegistry(ctx);
  const running = claimedJobs(ctx, TURN_PREFIX)
    .map((job) => Number(job.slice(TURN_PREFIX.length)))
    .filter((id) => Number.isSafeInteger(id) && registry.observe(id).claimed);
  if (running.length) {
    const which = running.length === 1 ? `Conversation ${running[0]} has a running turn` : `Conversations ${running.join(', ')} have running turns`;
    throw conflict('turn_active', `${which}; cancel ${running.length === 1 ? 'it' : 'them'} (\`svc assistant cancel ID\`) or wait, before erasing conversations.`, { session_ids: running });
  }
}

/** Report files svc wrote (execution-N.txt) in the reports folder; other files are left alone. */
function removeReportFiles(dir: string): number {
  let removed = 0;
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!/^execution-\d+\.[a-z]+$/.test(name)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

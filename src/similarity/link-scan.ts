/**
 * The near-duplicate scan. Never all pairs: every document gets a few blocking
 * keys (its arXiv id, its DOI, the identifiers its relations name, and
 * MinHash bands of its title words, with and without the first author), the
 * keys are sorted, and only documents sharing a key are compared (blocks larger
 * than MAX_BLOCK are skipped as too generic). Candidate pairs are then judged
 * document by document (link-rules.ts). Cancel stops after the document in
 * flight; links written so far are kept. Links never delete or merge records.
 *
 * A scan that was cancelled, interrupted or failed leaves a checkpoint (the
 * last document whose pairs were all judged, and the newest document the scan
 * knew), written in the same transaction as the links. The next scan resumes
 * from it: it still blocks every document, but skips the pairs the stopped scan
 * had judged (lower document at or below the checkpoint, both documents known
 * to it); pairs with a document added since are judged. A completed scan
 * clears the checkpoint, so the scan after it judges everything again. A
 * completed scan also removes the links that neither it nor the stopped scans
 * it resumed found again (the rules changed, or the papers did): the links
 * left are those the current rules make.
 *
 * One scan at a time per data directory, whichever process starts it (the
 * server's route, `svc links scan`): the scan holds the job claim
 * (claims/jobs.ts) from before its row exists until it ends; a second start
 * anywhere is a 409 link_scan_already_running naming the process that runs it.
 * A cancel from any process reaches the scan through the claim's flag.
 */
import type { Context } from '../context.js';
import { readAppState, writeAppState } from '../db/app-state.js';
import { countDocuments } from './repo.js';
import { hash32 } from './lexical.js';
import { blockingFeatures, judgePair, linkFeatures, type BlockingFeatures, type LinkFeatures, type LinkVerdict } from './link-rules.js';
import { finishScan, latestScan, linkDocsByIds, linkDocsPage, progressScan, removeLinksNotFoundSince, scanById, startScan, writeLinks, type ScanRow } from './links-repo.js';
import { interruptOrphanedRuns } from './recovery.js';
import { cancelInBackground, startInBackground, type CancelAnswer, type JobSlot } from './background-job.js';
import { claimJob, describeHolder, jobCancelPoll, jobConflict, jobHolder, noteJobRun, releaseJob, type JobHolder } from '../claims/jobs.js';

const JOB = 'links.scan';

function alreadyRunning(holder: JobHolder) {
  const scan = holder.run_id === null ? '' : ` #${holder.run_id}`;
  const cancel = holder.here ? '' : holder.role === 'cli' ? '; wait for it, or stop it with svc links cancel' : '; wait for it, or stop it with svc links cancel (POST /api/links/scan/cancel)';
  return jobConflict('link_scan_already_running', `A link scan${scan} is already running in ${describeHolder(holder)}${cancel}.`, holder, { scan_id: holder.run_id });
}

export const MAX_BLOCK = 100;
const IDX_BITS = 2 ** 22; // documents per scan: 4,194,304
const BANDS_WITH_AUTHOR = 10; // 2 rows each
const BANDS_WITHOUT_AUTHOR = 5; // 4 rows each
const HASHES = 20;
const SEEDS = Array.from({ length: HASHES }, (_, i) => hash32(`minhash-seed-${i}`));
const SHORT_WORDS = new Set(['a', 'an', 'and', 'the', 'of', 'in', 'on', 'for', 'to', 'with', 'by', 'at', 'from', 'is', 'are', 'via']);

function minhash(words: Set<string>): number[] {
  const mins = new Array<number>(HASHES).fill(0xffffffff);
  for (const w of words) {
    if (SHORT_WORDS.has(w)) continue;
    const h = hash32(w);
    for (let k = 0; k < HASHES; k++) {
      const v = Math.imul(h ^ SEEDS[k]!, 0x9e3779b1) >>> 0;
      const mixed = (v ^ (v >>> 16)) >>> 0;
      if (mixed < mins[k]!) mins[k] = mixed;
    }
  }
  return mins;
}

/**
 * The blocking keys of one document (31-bit hashes): its identifiers, its title key and the key of
 * its main title (so "X: a systematic review" meets "X" whatever its subtitle's length), and MinHash
 * bands of its title words with and without the first author's family name.
 */
export function blockKeys(f: BlockingFeatures): number[] {
  const keys: string[] = [];
  if (f.arxiv) keys.push(`a:${f.arxiv}`);
  if (f.doi) keys.push(`d:${f.doi}`);
  for (const r of f.related) keys.push(r);
  if (!f.notice && f.words.size > 0) {
    keys.push(`s:${f.mainKey ?? f.titleKey}`);
    if (f.mainKey !== undefined) keys.push(`s:${f.titleKey}`);
    const mh = minhash(f.words);
    const first = f.firstAuthor;
    for (let b = 0; b < BANDS_WITH_AUTHOR; b++) keys.push(`m${b}:${first}:${mh[2 * b]}:${mh[2 * b + 1]}`);
    for (let b = 0; b < BANDS_WITHOUT_AUTHOR; b++) keys.push(`n${b}:${mh[4 * b]}:${mh[4 * b + 1]}:${mh[4 * b + 2]}:${mh[4 * b + 3]}`);
  }
  return keys.map((k) => hash32(k) >>> 1);
}

/** Growable Float64 list (typed, so millions of entries sort natively). */
class NumberList {
  data = new Float64Array(1 << 16);
  length = 0;
  push(v: number) {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  sorted(): Float64Array {
    return this.data.subarray(0, this.length).sort();
  }
}

export interface ScanOptions {
  isCancelled?: () => boolean;
  onProgress?: (scan: { scanned: number; total: number; candidates: number; links: number; phase: string }) => void;
  onStart?: (scanId: number) => void;
  /** After each document is judged, with the links found so far (written or pending). */
  onJudged?: (documentId: number, linksFound: number) => void;
}

const tick = () => new Promise((r) => setImmediate(r));

const CHECKPOINT_KEY = 'similarity.link-scan.checkpoint';

/** Where a stopped scan got to: every pair whose lower document id ≤ through, among documents ≤ newest, is judged. */
export interface ScanCheckpoint {
  scan_id: number;
  started_at_utc: string;
  through_document_id: number;
  newest_document_id: number;
  /** The scan that started judging the corpus this checkpoint carries on (absent in checkpoints older than schema 35). */
  first_scan_id?: number;
}

/** The checkpoint the next scan resumes from, when the latest scan stopped before its end; else undefined. */
export function resumableCheckpoint(ctx: Context): ScanCheckpoint | undefined {
  const cp = readAppState<ScanCheckpoint | null>(ctx.db, CHECKPOINT_KEY);
  const last = latestScan(ctx.db);
  if (!cp || !last || last.id !== cp.scan_id || last.started_at_utc !== cp.started_at_utc) return undefined;
  if (last.state === 'completed' || last.state === 'running') return undefined;
  return cp.through_document_id > 0 ? cp : undefined;
}

/** Run one scan to its end (or cancel) in this process; answers the finished scan row; 409 when one runs anywhere. */
export async function runLinkScan(ctx: Context, options: ScanOptions = {}): Promise<ScanRow> {
  const { holder } = claimJob(ctx, JOB);
  if (holder) throw alreadyRunning(holder);
  try {
    return await scanClaimed(ctx, options);
  } finally {
    releaseJob(ctx, JOB);
  }
}

async function scanClaimed(ctx: Context, options: ScanOptions): Promise<ScanRow> {
  interruptOrphanedRuns(ctx);
  const resume = resumableCheckpoint(ctx);
  const total = countDocuments(ctx.db);
  const startedAt = ctx.nowIso();
  const scanId = startScan(ctx.db, total, ctx.runtimeId, startedAt);
  noteJobRun(ctx, JOB, scanId);
  // The scans that judge the corpus once, from a first scan through the scans that resume it: the
  // links they did not find again are removed when the last of them completes (unknown for a
  // checkpoint written before schema 35: nothing is removed then).
  const firstScanId = resume ? resume.first_scan_id : scanId;
  // This scan carries the checkpoint on (a resumed scan stopped again still resumes from it).
  let checkpoint: ScanCheckpoint | null = resume ? { ...resume, scan_id: scanId, started_at_utc: startedAt } : null;
  writeAppState(ctx.db, CHECKPOINT_KEY, checkpoint, startedAt);
  options.onStart?.(scanId);
  const cancelRequested = jobCancelPoll(ctx, JOB);
  const cancelled = () => (options.isCancelled?.() ?? false) || cancelRequested();
  let scanned = 0;
  let written = 0;
  let candidates = 0;
  try {
    // 1. Blocking keys, document by document, into one sortable list: key * 2^22 + index.
    const ids: number[] = [];
    const entries = new NumberList();
    let afterId = 0;
    while (!cancelled()) {
      const page = linkDocsPage(ctx.db, afterId, 5000);
      if (page.length === 0) break;
      for (const doc of page) {
        const idx = ids.length;
        if (idx >= IDX_BITS) break;
        ids.push(doc.id);
        for (const key of blockKeys(blockingFeatures(doc))) entries.push(key * IDX_BITS + idx);
      }
      afterId = page[page.length - 1]!.id;
      options.onProgress?.({ scanned: 0, total, candidates: 0, links: 0, phase: 'blocking' });
      await tick();
    }
    // 2. Blocks → candidate pairs (low index * 2^22 + high index), each once.
    const sorted = entries.sorted();
    const pairs = new NumberList();
    for (let start = 0; start < sorted.length && !cancelled(); ) {
      const key = Math.floor(sorted[start]! / IDX_BITS);
      let end = start + 1;
      while (end < sorted.length && Math.floor(sorted[end]! / IDX_BITS) === key) end++;
      const size = end - start;
      if (size > 1 && size <= MAX_BLOCK) {
        for (let i = start; i < end; i++) {
          for (let j = i + 1; j < end; j++) {
            const x = sorted[i]! % IDX_BITS;
            const y = sorted[j]! % IDX_BITS;
            if (x !== y) pairs.push(Math.min(x, y) * IDX_BITS + Math.max(x, y));
          }
        }
      }
      start = end;
    }
    const pairList = pairs.sorted();
    // 3. Judge, document by document (the low index of each pair), writing links as they are found.
    let pending: { a: number; b: number; verdict: LinkVerdict }[] = [];
    // The links and the scan's count of them in one transaction, so links_written always matches the rows.
    // The checkpoint too, so a stopped scan's checkpoint never claims pairs whose links were not written.
    let judgedThrough = 0;
    const newest = ids.length ? ids[ids.length - 1]! : 0;
    const flush = () => {
      written += ctx.db.transaction(() => {
        const added = pending.length ? writeLinks(ctx.db, pending, scanId, ctx.nowIso()) : 0;
        progressScan(ctx.db, scanId, scanned, candidates, written + added);
        if (judgedThrough > (checkpoint?.through_document_id ?? 0)) {
          checkpoint = { scan_id: scanId, started_at_utc: startedAt, through_document_id: judgedThrough, newest_document_id: newest, first_scan_id: firstScanId };
          writeAppState(ctx.db, CHECKPOINT_KEY, checkpoint, ctx.nowIso());
        }
        return added;
      })();
      pending = [];
    };
    const judgedBefore = (lowId: number, highId: number) => resume !== undefined && lowId <= resume.through_document_id && highId <= resume.newest_document_id;
    let i = 0;
    let sinceTick = 0;
    while (i < pairList.length && !cancelled()) {
      const low = Math.floor(pairList[i]! / IDX_BITS);
      const partners: number[] = [];
      let prev = -1;
      while (i < pairList.length && Math.floor(pairList[i]! / IDX_BITS) === low) {
        const high = pairList[i]! % IDX_BITS;
        if (high !== prev && !judgedBefore(ids[low]!, ids[high]!)) partners.push(ids[high]!);
        prev = high;
        i++;
      }
      candidates += partners.length;
      judgedThrough = ids[low]!;
      if (partners.length === 0) {
        scanned = low + 1;
        continue;
      }
      const docs = new Map<number, LinkFeatures>(linkDocsByIds(ctx.db, [ids[low]!, ...partners]).map((d) => [d.id, linkFeatures(d)]));
      const self = docs.get(ids[low]!);
      if (self) {
        for (const other of partners) {
          const f = docs.get(other);
          const verdict = f && judgePair(self, f);
          if (verdict) pending.push({ a: self.id, b: other, verdict });
        }
      }
      scanned = low + 1;
      options.onJudged?.(ids[low]!, written + pending.length);
      if (pending.length >= 500 || ++sinceTick >= 2000) {
        flush();
        sinceTick = 0;
        options.onProgress?.({ scanned, total, candidates, links: written, phase: 'judging' });
        await tick();
      }
    }
    const finished = !cancelled();
    if (finished) scanned = total;
    flush();
    ctx.db.transaction(() => {
      const removed = finished && firstScanId !== undefined ? removeLinksNotFoundSince(ctx.db, firstScanId) : 0;
      finishScan(ctx.db, scanId, finished ? 'completed' : 'cancelled', null, ctx.nowIso(), removed);
      if (finished) writeAppState(ctx.db, CHECKPOINT_KEY, null, ctx.nowIso());
    })();
    options.onProgress?.({ scanned, total, candidates, links: written, phase: 'done' });
  } catch (err) {
    finishScan(ctx.db, scanId, 'failed', `${(err as Error).name}: ${(err as Error).message}`.slice(0, 500), ctx.nowIso());
    throw err;
  }
  return scanById(ctx.db, scanId)!;
}

const scans = (ctx: Context) => ctx.service('similarity.link-scan', (): JobSlot => ({ current: null }));

/** Start a scan in the background and answer at once; 409 link_scan_already_running when one runs in any process. */
export async function startLinkScan(ctx: Context): Promise<{ scan: ScanRow; already_running: false; resumed_after_document_id?: number }> {
  const resume = resumableCheckpoint(ctx);
  const id = await startInBackground(ctx, scans(ctx), 'link scan', ['link_scan_already_running'], (hooks) => runLinkScan(ctx, hooks));
  return { scan: scanById(ctx.db, id)!, already_running: false, ...(resume ? { resumed_after_document_id: resume.through_document_id } : {}) };
}

/** Ask the scan to stop after the document in flight, in whichever process runs it. */
export function cancelLinkScan(ctx: Context): CancelAnswer<'scan_id'> {
  return cancelInBackground(ctx, scans(ctx), JOB, 'scan_id', {
    none: 'No link scan is running.',
    stops: (where) => `The scan${where} stops after the document in flight; links already written are kept.`,
  });
}

/** Who runs the link scan now (any process), or null. */
export function linkScanHolder(ctx: Context): JobHolder | null {
  return jobHolder(ctx, JOB);
}

export async function linkScanSettled(ctx: Context): Promise<void> {
  await scans(ctx).current?.done;
}

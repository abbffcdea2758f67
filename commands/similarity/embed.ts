import type { Command } from 'commander';
import { runBackfill, cancelBackfill, activeLane } from '../../src/similarity/backfill.js';
import { backfillEstimate, embeddingStatus, probeLane } from '../../src/similarity/service.js';
import { rebuildIndex } from '../../src/similarity/vec-index.js';
import { indexWork, maintainIndex } from '../../src/similarity/index-build.js';
import { describeHolder } from '../../src/claims/jobs.js';
import { withContext } from '../lib/context.js';
import { onInterrupt, progressBar } from '../lib/bar.js';
import { EXIT } from '../lib/exit-codes.js';
import { emit, table, type Io } from '../lib/io.js';

/** Index states in which queries scan every vector until a build. */
const UNUSABLE = new Set(['missing', 'stale', 'corrupt', 'other_model']);

function statusText(s: Awaited<ReturnType<typeof embeddingStatus>>): string {
  const idx = s.index as Record<string, unknown>;
  return table([
    ['lane', `${s.provider}${s.kind ? ` (${s.kind}${s.kind === 'lexical' ? ', not semantic' : ''})` : ''}`],
    ['model', s.model ?? '-'],
    ['embedded', `${s.embedded} of ${s.total} documents (${s.missing} missing${s.missing > 0 ? ': `svc embed backfill` embeds them' : ''})`],
    ['run', s.run ? `#${s.run.id} ${s.run.state}, ${s.run.embedded}/${s.run.total}${s.run.error ? `: ${s.run.error}` : ''}` : 'none yet'],
    ...(s.running_in ? [['running in', `${describeHolder(s.running_in)}${s.running_in.cancel_requested ? ', stopping' : ''}`]] : []),
    ['index', `${idx.state} (${idx.vectors} vectors${idx.pending_changes ? `, ${idx.pending_changes} changes since the file` : ''}; queries by ${idx.query_method})${UNUSABLE.has(String(idx.state)) && s.extension.loaded && s.embedded > 0 ? '; `svc embed rebuild` builds it' : ''}`],
    ['usearch', s.extension.loaded ? `loaded ${s.extension.version}` : `not loaded: ${s.extension.reason}`],
  ]);
}

export function register(program: Command, io: Io): void {
  const embed = program.command('embed').description('embeddings: status, backfill, cancel, estimate, probe, rebuild (see svc-similarity(1))');
  embed
    .command('status')
    .description('embedded count of total, model, last run, index and HNSW library state')
    .action(() => withContext(io, async (ctx) => {
      const s = await embeddingStatus(ctx);
      emit(io, s, () => statusText(s));
    }));
  embed
    .command('backfill')
    .description('embed every document lacking a vector for the active model (foreground; Ctrl-C stops after the batch in flight; refused while a backfill runs in any process)')
    .action(() => withContext(io, async (ctx) => {
      const lane = activeLane(ctx);
      const bar = progressBar(io, `embedding (${lane.key})`);
      let stop = false;
      const release = onInterrupt(io, 'Stopping after the batch in flight; vectors written are kept…', () => (stop = true));
      try {
        const run = await runBackfill(ctx, { trigger: 'cli', isCancelled: () => stop, onProgress: (p) => bar.update(p.embedded, p.total) });
        bar.end();
        // A command ends before a background build would: the index is brought up to date here, said on stderr.
        const work = run.state === 'completed' ? await indexWork(ctx, run.model) : null;
        if (work) {
          io.err(work === 'build' ? 'Building the vector index (svc embed status shows it)…' : 'Writing the new vectors into the vector index…');
          await maintainIndex(ctx, run.model, { wait: true });
        }
        // "0 of 0 documents embedded" read as if the corpus were empty: say every paper already has one.
        emit(io, run, () => (run.state === 'completed' && run.total === 0 ? `Run #${run.id} completed: nothing to embed; every document already has a vector for ${run.model}.` : `Run #${run.id} ${run.state}: ${run.embedded} of ${run.total} documents embedded with ${run.model}.`));
        if (run.state === 'cancelled') io.exitCode = EXIT.interrupted;
      } finally {
        release();
      }
    }));
  embed
    .command('cancel')
    .description('ask the running backfill to stop after the batch in flight, in whichever process runs it (server or another svc embed backfill)')
    .action(() => withContext(io, (ctx) => {
      const answer = cancelBackfill(ctx);
      emit(io, answer, () => answer.message);
    }));
  embed
    .command('estimate')
    .description('documents, tokens and cost a backfill would take')
    .action(() => withContext(io, (ctx) => {
      const e = backfillEstimate(ctx);
      emit(io, e, () => `${e.documents} documents, about ${e.tokens} tokens, cost ${e.cost_usd === null ? 'unknown' : `$${e.cost_usd}`} (${e.model}).`);
    }));
  embed
    .command('probe')
    .description('embed one short string with the configured lane, or with --provider/--model/--base-url laid over it (not saved)')
    .option('--provider <id>', 'none, local, openai or ollama')
    .option('--model <id>', 'model id at the provider')
    .option('--base-url <url>', 'endpoint of an OpenAI-compatible or Ollama server')
    .action((opts: { provider?: string; model?: string; baseUrl?: string }) => withContext(io, async (ctx) => {
      const supplied: Record<string, unknown> = {};
      if (opts.provider !== undefined) supplied.provider = opts.provider;
      if (opts.model !== undefined) supplied.model = opts.model;
      if (opts.baseUrl !== undefined) supplied.base_url = opts.baseUrl;
      const answer = await probeLane(ctx, Object.keys(supplied).length ? supplied : null);
      emit(io, answer, () => (answer.ok ? `ok: ${answer.model} answered ${'dimension' in answer ? answer.dimension : '?'} dimensions in ${answer.ms} ms.` : `failed: ${answer.message}`));
      if (!answer.ok) io.exitCode = EXIT.failed;
    }));
  embed
    .command('rebuild')
    .description('rebuild the HNSW vector index from the canonical vectors of the active model')
    .action(() => withContext(io, async (ctx) => {
      const r = await rebuildIndex(ctx, activeLane(ctx).key);
      emit(io, r, () => `Index rebuilt: ${r.vectors} vectors of ${r.model} in ${r.ms} ms.`);
    }));
}

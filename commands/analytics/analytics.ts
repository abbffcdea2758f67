import type { Command } from 'commander';
import { keywordContribution, sourceContribution } from '../../src/analytics/contribution.js';
import { discoveryLag } from '../../src/analytics/lag.js';
import { HEALTH_RUNS, routineHealth } from '../../src/analytics/routine-health.js';
import { analyticsOverview, analyticsSummary } from '../../src/analytics/summary.js';
import { publicationVolume, VOLUME_SPLITS, VOLUME_TOP } from '../../src/analytics/volume.js';
import { parseWindow } from '../../src/analytics/window.js';
import { wordedContext } from '../lib/context.js';
import { enumFlag, idArg, intFlag, given, usageError } from '../lib/flags.js';
import { emit, type Io } from '../lib/io.js';
import { healthText, keywordsText, lagText, overviewText, sourcesText, summaryText, volumeText } from './format.js';

/** Refusals name the svc command, not the HTTP route the service words them for. */
const withContext = wordedContext('analytics');

/** The views, named as the assistant's get_analytics names them. */
export const VIEWS = ['overview', 'summary', 'volume', 'sources', 'keywords', 'routine-health', 'discovery-lag'] as const;

/** The flags that belong to one view. */
const VIEW_FLAGS = [
  ['--split', 'split', 'volume'],
  ['--top', 'top', 'volume'],
  ['--runs', 'runs', 'routine-health'],
  ['--routine', 'routine', 'keywords'],
] as const;

interface Flags {
  window?: string;
  split?: string;
  top?: string;
  runs?: string;
  routine?: string;
}

export function register(program: Command, io: Io): void {
  program
    .command('analytics')
    .argument('[view]', `${VIEWS.join(', ')} (default overview)`)
    .option('--window <days>', 'only the last N days of collection (e.g. 30 or 30d); default everything')
    .option('--split <by>', 'volume: split by source or category (default source)')
    .option('--top <n>', `volume: series named before "other" (${VOLUME_TOP.min} to ${VOLUME_TOP.max}, default ${VOLUME_TOP.default})`)
    .option('--runs <n>', `routine-health: runs per routine (${HEALTH_RUNS.min} to ${HEALTH_RUNS.max}, default ${HEALTH_RUNS.default})`)
    .option('--routine <id>', 'keywords: only the runs of this routine')
    .description('what the corpus and the routines did: tables, and bar charts of volume and lag on a terminal')
    .action((rawView: string | undefined, flags: Flags) => {
      const view = enumFlag(rawView ?? 'overview', 'view', VIEWS)!;
      // A flag of another view would be ignored without a word: say which view it belongs to.
      for (const [flag, key, owner] of VIEW_FLAGS) {
        if (flags[key] !== undefined && view !== owner) throw usageError(`${flag} applies to the ${owner} view only (svc analytics ${owner} ${flag} …).`);
      }
      let window;
      try {
        window = parseWindow(flags.window, new Date());
      } catch {
        throw usageError(`--window must be a number of days from 1 to 3650 (e.g. 30 or 30d) or all, not ${given(String(flags.window))}.`);
      }
      const split = enumFlag(flags.split, '--split', VOLUME_SPLITS) ?? 'source';
      const top = intFlag(flags.top, '--top', VOLUME_TOP, VOLUME_TOP.default);
      const runs = intFlag(flags.runs, '--runs', HEALTH_RUNS, HEALTH_RUNS.default);
      const routine = flags.routine === undefined ? null : idArg(flags.routine, 'routine');
      const tty = io.stdoutIsTTY;
      return withContext(io, (ctx) => {
        window = parseWindow(flags.window, ctx.clock.now());
        switch (view) {
          case 'overview': {
            const o = analyticsOverview(ctx, window);
            return emit(io, o, () => overviewText(o, tty));
          }
          case 'summary': {
            const s = analyticsSummary(ctx, window);
            return emit(io, s, () => summaryText(s));
          }
          case 'volume': {
            const v = publicationVolume(ctx, window, split, top);
            return emit(io, v, () => volumeText(v, tty));
          }
          case 'sources': {
            const s = sourceContribution(ctx, window);
            return emit(io, s, () => sourcesText(s));
          }
          case 'keywords': {
            const k = keywordContribution(ctx, window, routine);
            return emit(io, k, () => keywordsText(k));
          }
          case 'routine-health': {
            const h = routineHealth(ctx, window, runs);
            return emit(io, h, () => healthText(h));
          }
          case 'discovery-lag': {
            const l = discoveryLag(ctx, window);
            return emit(io, l, () => lagText(l, tty));
          }
        }
      });
    });
}

/** The 25 tools of contract v2.3: 18 read, 7 write. No tool deletes anything. */
import type { ToolDef } from '../tool.js';
import { getAnalytics, getWatchdogFindings } from './analytics.js';
import { explainMatch, exportReferences, findSimilar, getPaperLifecycle, searchCorpus } from './corpus.js';
import { getExecution, getExecutionResults, getSearchRecord, listExecutions, runSweep } from './executions.js';
import { health } from './health.js';
import { createWatchProfile, getProfileMatches, getWatchProfile, listWatchProfiles } from './profiles.js';
import { activateRoutine, createRoutine, deactivateRoutine, getRoutine, listRoutines, runRoutine } from './routines.js';
import { updateSettings } from './settings.js';
import { listSources } from './sources.js';

export const TOOLS: ToolDef[] = [
  health,
  searchCorpus,
  findSimilar,
  listSources,
  listRoutines,
  getRoutine,
  listExecutions,
  getExecution,
  getExecutionResults,
  getSearchRecord,
  explainMatch,
  getPaperLifecycle,
  getAnalytics,
  getWatchdogFindings,
  exportReferences,
  listWatchProfiles,
  getWatchProfile,
  getProfileMatches,
  runSweep,
  createRoutine,
  createWatchProfile,
  runRoutine,
  activateRoutine,
  deactivateRoutine,
  updateSettings,
];

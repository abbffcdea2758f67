/**
 * What each interrupted_reason means (spec 1: never a guess), in the words the
 * run's log records when it is marked and that the lists and the window show
 * beside the code.
 */
import type { InterruptedReason } from './repo.js';

export const INTERRUPTED_REASON_MEANING: Record<InterruptedReason, string> = {
  daemon_restart: 'svc was stopped during the run',
  owner_dead: 'the process that owned this run is gone and recorded nothing (killed, or the machine stopped)',
  unknown: 'svc cannot tell what became of the process that owned this run',
};

export const interruptedMeaning = (reason: string | null): string | null => (reason ? (INTERRUPTED_REASON_MEANING[reason as InterruptedReason] ?? null) : null);

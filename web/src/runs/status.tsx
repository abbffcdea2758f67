/** A run's status as a chip, with the interrupted reason in the service's words. */
import type { RunStatus } from '../api/executions.js';

const CHIP: Record<RunStatus, string> = {
  running: 'chip chip-running',
  completed: 'chip chip-ok',
  failed: 'chip chip-danger',
  cancelled: 'chip chip-warn',
  interrupted: 'chip chip-warn',
};

export function StatusChip({ status, cancelling }: { status: RunStatus; cancelling?: boolean }) {
  return (
    <span class={CHIP[status] ?? 'chip'}>
      {status === 'running' && <span class="spinner small" aria-hidden="true" />}
      {status === 'running' && cancelling ? 'cancelling' : status}
    </span>
  );
}

/** "interrupted (owner_dead): the process that owned this run is gone…" */
export function InterruptedWhy({ reason, meaning }: { reason: string | null; meaning: string | null }) {
  if (!reason) return null;
  return (
    <span class="interrupted-why">
      <code>{reason}</code>
      {meaning && `: ${meaning}`}
    </span>
  );
}

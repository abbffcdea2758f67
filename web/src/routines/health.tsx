/** A routine's health as routine-health judges it: quiet against its own history, still finding, or too few runs to say. */
import type { RoutineHealthRow } from '../api/routines.js';

export function HealthChip({ health }: { health: RoutineHealthRow | undefined }) {
  if (!health) return <span class="muted">…</span>;
  if (health.quiet === true) return <span class="chip chip-warn health-chip">quiet</span>;
  if (health.quiet === false) return <span class="chip chip-ok health-chip">finding new papers</span>;
  return <span class="chip health-chip">not judged yet</span>;
}

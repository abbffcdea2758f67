/** The shapes every watchdog producer answers. */
import type { Context } from '../context.js';

export type FindingLabel = 'broken' | 'unusual';

export interface Finding {
  /** Stable within a state: muting acknowledges this key. */
  key: string;
  check: string;
  label: FindingLabel;
  subject: { kind: 'source' | 'routine' | 'delivery'; id: string | number; name: string };
  title: string;
  /**
   * Since when the stored history shows it: the first run of a failing streak or of the quiet runs,
   * the oldest failing run among the recent ones, the first missed fire, the first failed attempt of
   * the failing deliveries. null when nothing stored dates it (a credential absent from the store).
   */
  since_utc: string | null;
  what_to_do: string;
  evidence: Record<string, unknown>;
  thresholds: Record<string, unknown>;
}

export interface Unjudged {
  check: string;
  subject: { kind: 'source' | 'routine' | 'delivery'; id: string | number | null; name: string | null } | null;
  reason: string;
}

export interface ProducerResult {
  findings: Finding[];
  unjudged: Unjudged[];
}

/** One check: a small function over the stored history. */
export interface Producer {
  check: string;
  /** What it looks at and when it speaks (shown in the answer). */
  describes: string;
  run(ctx: Context): ProducerResult;
}

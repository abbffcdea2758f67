/**
 * The JSON of the watchdog as the routes send it (spec 1, "Analytics,
 * watchdog, lifecycle"): a finding, what could not be judged, the list, and the answers
 * to a mute and an unmute. Declared once here, for the service and the window
 * alike; imports nothing but wire files.
 */

/** broken: cannot do its work as configured; unusual: works, but not as it did. */
export type FindingLabel = 'broken' | 'unusual';
export type SubjectKind = 'source' | 'routine' | 'delivery';

/** One finding as a check raises it. */
export interface Finding {
  /** Stable within a state: muting acknowledges this key. */
  key: string;
  check: string;
  label: FindingLabel;
  subject: { kind: SubjectKind; id: string | number; name: string };
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

/** A finding as the list answers it: with whether, when and why it was muted. */
export interface MarkedFinding extends Finding {
  muted: boolean;
  muted_at_utc: string | null;
  mute_note: string | null;
}

/** A subject a check could not judge (subject null when the check itself failed). */
export interface Unjudged {
  check: string;
  subject: { kind: SubjectKind; id: string | number | null; name: string | null } | null;
  reason: string;
}

/** GET /api/watchdog. */
export interface WatchdogAnswer {
  checked_at_utc: string;
  include_muted: boolean;
  alarm_total: number;
  by_label: Record<FindingLabel, number>;
  muted_total: number;
  findings: MarkedFinding[];
  could_not_judge: Unjudged[];
  checks: { check: string; describes: string }[];
  method: string;
}

/** POST /api/watchdog/mute. */
export interface MuteAnswer {
  key: string;
  muted: true;
  already_muted: boolean;
  muted_at_utc: string;
  note: string | null;
  finding: MarkedFinding;
  alarm_total: number;
}

/** POST /api/watchdog/unmute: the finding is null when it is no longer raised. */
export interface UnmuteAnswer {
  key: string;
  muted: false;
  finding: MarkedFinding | null;
  alarm_total: number;
}

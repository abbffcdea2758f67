/**
 * Watchdog findings as the backend answers them, and the calls the watchdog
 * page makes: read the findings (muted ones included, shown apart), mute one
 * with an optional note, unmute it. Components draw; these ask.
 */
import { api } from './client.js';

export interface Finding {
  key: string;
  check: string;
  /** broken: cannot do its work as configured; unusual: works, but not as it did. */
  label: 'broken' | 'unusual';
  subject: { kind: 'source' | 'routine' | 'delivery'; id: string | number; name: string };
  title: string;
  since_utc: string | null;
  what_to_do: string;
  evidence: Record<string, unknown>;
  thresholds: Record<string, unknown>;
  muted: boolean;
  muted_at_utc: string | null;
  mute_note: string | null;
}

export interface Unjudged {
  check: string;
  subject: { kind: string; id: string | number | null; name: string | null } | null;
  reason: string;
}

export interface WatchdogAnswer {
  checked_at_utc: string;
  alarm_total: number;
  by_label: { broken: number; unusual: number };
  muted_total: number;
  findings: Finding[];
  could_not_judge: Unjudged[];
  checks: { check: string; describes: string }[];
  method: string;
}

export const watchdog = {
  /** Every current finding, muted ones included (the page shows them apart). */
  findings: (signal?: AbortSignal) => api.get<WatchdogAnswer>('/api/watchdog', { query: { include_muted: true }, signal }),
  mute: (key: string, note: string | null) => api.post<{ key: string; muted: true; already_muted: boolean; alarm_total: number }>('/api/watchdog/mute', { key, note }),
  unmute: (key: string) => api.post<{ key: string; muted: false; alarm_total: number }>('/api/watchdog/unmute', { key }),
};

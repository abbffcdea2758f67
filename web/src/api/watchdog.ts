/**
 * The calls the watchdog page makes: read the findings (muted ones included,
 * shown apart), mute one with an optional note, unmute it. Components draw;
 * these ask. The answers' shapes are the service's, from src/wire/watchdog.ts.
 */
import type { MuteAnswer, UnmuteAnswer, WatchdogAnswer } from '../../../src/wire/watchdog.js';
import { api } from './client.js';

export type { MarkedFinding as Finding } from '../../../src/wire/watchdog.js';

export const watchdog = {
  /** Every current finding, muted ones included (the page shows them apart). */
  findings: (signal?: AbortSignal) => api.get<WatchdogAnswer>('/api/watchdog', { query: { include_muted: true }, signal }),
  mute: (key: string, note: string | null) => api.post<MuteAnswer>('/api/watchdog/mute', { key, note }),
  unmute: (key: string) => api.post<UnmuteAnswer>('/api/watchdog/unmute', { key }),
};

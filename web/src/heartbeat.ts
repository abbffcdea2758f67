/**
 * The renderer heartbeat of spec 1: while this page is open it tells the
 * backend every 15 s, so a fallback backend knows a window still uses it
 * (it stops only after 3 minutes without one and with no run active;
 * background tabs slow timers to about once a minute, well inside that).
 */
import { api } from './api/client.js';

const EVERY_MS = 15_000;

export function startHeartbeat(): () => void {
  const beat = () => void api.post('/api/renderer/heartbeat').catch(() => undefined);
  beat();
  const timer = setInterval(beat, EVERY_MS);
  return () => clearInterval(timer);
}

/**
 * The window's entry: take the launch code out of the address, trade it for a
 * session (once), then draw the app — or, without a session, say how to get in.
 */
import { render } from 'preact';
import { App } from './app.js';
import { startHeartbeat } from './heartbeat.js';
import { followLink } from './router.js';
import { exchange, session, SessionRefused, takeLaunchCode } from './session.js';
import { NoSession } from './ui/no-session.js';

async function boot(): Promise<void> {
  const root = document.getElementById('app')!;
  root.textContent = ''; // the boot line goes: render() adds to what is there
  const code = takeLaunchCode();
  let refusal: { reason: string; message: string } | null = null;
  if (code) {
    try {
      await exchange(code);
    } catch (err) {
      refusal = err instanceof SessionRefused ? { reason: err.reason, message: err.message } : { reason: 'exchange_failed', message: String(err) };
    }
  }
  if (!session.value) {
    render(<NoSession refusal={refusal} />, root);
    return;
  }
  startHeartbeat();
  document.addEventListener('click', followLink);
  render(<App />, root);
}

void boot();

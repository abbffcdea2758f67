/**
 * `svc …` on a real terminal (util-linux `script` gives it a pty), answered
 * step by step: each step waits until the screen shows its text, then types
 * its keys. Prompts are answered when they are up, never after a fixed delay
 * (a loaded machine draws late).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, waitFor } from './_setup.js';

export interface PtyStep {
  /** Text the screen must show (since the previous step) before the keys are typed. */
  after: string | RegExp;
  keys: string;
}

export interface PtyRun {
  /** What the terminal showed, escape sequences taken out. */
  screen: string;
  code: number | null;
}

export const ENTER = '\r';
export const DOWN = '\u001b[B';
export const SPACE = ' ';

/** What a pty showed, without the prompt library's drawing. */
export const plainScreen = (out: string) => out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

export async function onPty(argv: string[], env: Record<string, string | undefined>, steps: PtyStep[], timeoutMs = 20_000): Promise<PtyRun> {
  const quoted = [process.execPath, path.join(ROOT, 'bin', 'svc.js'), ...argv].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // A pty starts zero columns wide, where a prompt would wrap after every character.
  const child = spawn('script', ['-qec', `stty cols 200 rows 50; ${quoted}`, '/dev/null'], { env: { PATH: process.env.PATH, TERM: 'xterm', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs * (steps.length + 1));
  try {
    let seen = 0;
    for (const step of steps) {
      const shown = () => {
        const rest = plainScreen(out.slice(seen));
        return typeof step.after === 'string' ? rest.includes(step.after) : step.after.test(rest);
      };
      await waitFor(shown, timeoutMs, `the screen to show ${step.after}`).catch((e: Error) => {
        throw new Error(`${e.message}; it shows: ${JSON.stringify(plainScreen(out.slice(seen)))}`);
      });
      seen = out.length;
      // The prompt reads its keys once drawn; a short pause lets it take them as typed, one by one.
      await new Promise((r) => setTimeout(r, 150));
      for (const key of step.keys.match(/\u001b\[[A-D]|[\s\S]/g) ?? []) {
        child.stdin.write(key);
        await new Promise((r) => setTimeout(r, 15));
      }
    }
    const code = await closed;
    return { screen: plainScreen(out), code };
  } finally {
    clearTimeout(killer);
    child.stdin.end();
    child.kill('SIGKILL');
  }
}

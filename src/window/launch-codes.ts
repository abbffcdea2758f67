/**
 * One-time launch codes: the only way a tab gets the API token. A code
 * travels in the URL's fragment (never sent to a server, never in a log), is
 * traded once at POST /shell/exchange and expires 10 minutes after it was
 * given out. A code is remembered for as long again after that, so a late
 * or second use says "expired" or "used" rather than "unknown".
 */
import type { Random } from '../random.js';

export const LAUNCH_CODE_TTL_MS = 10 * 60_000;

export type LaunchCodeRefusal = 'launch_code_used' | 'launch_code_expired' | 'launch_code_invalid';

export type Redeemed = { ok: true } | { ok: false; reason: LaunchCodeRefusal; message: string };

export interface LaunchCodes {
  /** A fresh code: 32 random bytes, base64url. */
  mint(): string;
  /** Whether the code would be taken now, without using it up. */
  check(code: string): Redeemed;
  /** Use a code up; a refusal says why in words a person can act on. */
  redeem(code: string): Redeemed;
}

const HOW_TO_GET_IN = 'Run `svc window` again, or use "Open in new tab" in a window that is signed in.';

const REFUSALS: Record<LaunchCodeRefusal, string> = {
  launch_code_used: `This launch link was used already: each one opens one tab, once. ${HOW_TO_GET_IN}`,
  launch_code_expired: `This launch link expired: a link works for ${LAUNCH_CODE_TTL_MS / 60_000} minutes. ${HOW_TO_GET_IN}`,
  launch_code_invalid: `This launch link is not one this window gave out (was svc window started again?). ${HOW_TO_GET_IN}`,
};

/** @example const codes = createLaunchCodes(systemRandom); codes.redeem(codes.mint()) // { ok: true } */
export function createLaunchCodes(random: Random, now: () => number = Date.now, ttlMs = LAUNCH_CODE_TTL_MS): LaunchCodes {
  const codes = new Map<string, { expiresAt: number; used: boolean }>();
  const refuse = (reason: LaunchCodeRefusal): Redeemed => ({ ok: false, reason, message: REFUSALS[reason] });
  const forgetExpired = () => {
    for (const [code, entry] of codes) if (entry.expiresAt + ttlMs <= now()) codes.delete(code);
  };
  const check = (code: string): Redeemed => {
    const entry = codes.get(code);
    if (!entry) return refuse('launch_code_invalid');
    if (entry.used) return refuse('launch_code_used');
    if (entry.expiresAt <= now()) return refuse('launch_code_expired');
    return { ok: true };
  };
  return {
    mint() {
      forgetExpired();
      const code = random.bytes(32).toString('base64url');
      codes.set(code, { expiresAt: now() + ttlMs, used: false });
      return code;
    },
    check,
    redeem(code) {
      const checked = check(code);
      if (checked.ok) codes.get(code)!.used = true;
      return checked;
    },
  };
}

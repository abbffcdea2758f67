/**
 * Delivery destinations of a routine (spec 1 "Delivery"): create with the
 * defaults enabled true, mode automatic, target empty; update enabled, mode
 * and target (each optional and nullable: null leaves the value as it is).
 * Targets are checked on every write with a 422 that never echoes the
 * destination. A webhook destination gets its own random secret, kept here.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import type { Context } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { DELIVERY_CHANNELS, type DeliveryChannel } from './summary.js';
import { parseWith } from '../util/validate.js';
import * as repo from './repo.js';
import type { Target as TargetView, TargetList, TargetRemoved } from '../wire/deliveries.js';

export const TARGET_MAX_LENGTH = { email: 320, folder: 4096, feed: 4096, webhook: 2048 } as const;

const Create = v.strictObject({
  channel: v.picklist(DELIVERY_CHANNELS, `Input should be one of: ${DELIVERY_CHANNELS.join(', ')}`),
  enabled: v.optional(v.boolean(), true),
  mode: v.optional(v.picklist(repo.TARGET_MODES, `Input should be one of: ${repo.TARGET_MODES.join(', ')}`), 'automatic'),
  target: v.optional(v.string(), ''),
});

const Update = v.strictObject({
  enabled: v.nullish(v.boolean()),
  mode: v.nullish(v.picklist(repo.TARGET_MODES, `Input should be one of: ${repo.TARGET_MODES.join(', ')}`)),
  target: v.nullish(v.string()),
});

export type TargetCreate = v.InferInput<typeof Create>;
export type TargetUpdate = v.InferInput<typeof Update>;

const EMAIL = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+\.[^\s@<>(),;:"\\[\]]+$/;

/** Check a destination for its channel; answers it trimmed. The 422 never carries the value. */
export function checkTarget(channel: DeliveryChannel, raw: string, loc: (string | number)[] = ['body', 'target']): string {
  const target = raw.trim();
  const refuse = (msg: string, type = 'target_invalid') => invalid(loc, msg, type);
  if (target.length > TARGET_MAX_LENGTH[channel]) throw refuse(`The target is longer than ${TARGET_MAX_LENGTH[channel]} characters`, 'string_too_long');
  if (/[\u0000-\u001f\u007f]/.test(target)) throw refuse('The target contains control characters');
  switch (channel) {
    case 'email':
      if (target !== '' && !EMAIL.test(target)) throw refuse('<address> is not one email address (name@domain.tld); leave the target empty to use the recipient of the email settings');
      return target;
    case 'webhook': {
      if (target === '') throw refuse('A webhook destination needs a URL (http or https)', 'missing');
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        throw refuse('<url> is not a valid URL');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('<url> must use http or https');
      if (url.username || url.password) throw refuse('<url> must not carry a user name or password; the destination is authenticated by its signature secret');
      if (url.hash) throw refuse('<url> must not have a #fragment');
      return target;
    }
    case 'folder':
    case 'feed': {
      if (target === '') throw refuse(`A ${channel} destination needs a directory`, 'missing');
      if (!path.isAbsolute(target)) throw refuse('<target> must be an absolute directory path');
      let stat: fs.Stats;
      try {
        stat = fs.statSync(target);
      } catch {
        throw refuse('<target> does not exist; create the directory first');
      }
      if (!stat.isDirectory()) throw refuse('<target> is not a directory');
      return path.resolve(target);
    }
  }
}

export type { Target as TargetView } from '../wire/deliveries.js';

export function targetView(row: repo.TargetRow): TargetView {
  return {
    id: row.id,
    routine_id: row.routine_id,
    channel: row.channel,
    enabled: row.enabled === 1,
    mode: row.mode,
    target: row.target,
    signed: row.secret !== null,
    created_at_utc: row.created_at_utc,
    updated_at_utc: row.updated_at_utc,
  };
}

function requireRoutineRow(ctx: Context, routineId: number) {
  const row = repo.routineFacts(ctx.db, routineId);
  if (!row) throw notFound('routine_not_found', `No routine ${routineId}; GET /api/routines (or \`svc routine list\`) lists them.`);
  return row;
}

export function requireTarget(ctx: Context, routineId: number, targetId: number): repo.TargetRow {
  requireRoutineRow(ctx, routineId);
  const row = repo.getTarget(ctx.db, targetId);
  if (!row || row.routine_id !== routineId) throw notFound('delivery_target_not_found', `Routine ${routineId} has no delivery target ${targetId}.`);
  return row;
}

export function listTargets(ctx: Context, routineId: number): TargetList {
  requireRoutineRow(ctx, routineId);
  return { routine_id: routineId, targets: repo.targetsOf(ctx.db, routineId).map(targetView) };
}

/** @example createTarget(ctx, 3, { channel: 'folder', target: '/home/me/reports' }) */
const newSecret = (ctx: Context) => {
  const secret = ctx.random.bytes(32).toString('hex');
  ctx.log.addSecret(secret);
  return secret;
};

export function createTarget(ctx: Context, routineId: number, body: unknown): TargetView {
  requireRoutineRow(ctx, routineId);
  const input = parseWith(Create, body, ['body'], { hideInput: true });
  const target = checkTarget(input.channel, input.target);
  const secret = input.channel === 'webhook' ? newSecret(ctx) : null;
  const id = repo.insertTarget(ctx.db, { routineId, channel: input.channel, enabled: input.enabled, mode: input.mode, target, secret }, ctx.nowIso());
  return targetView(repo.getTarget(ctx.db, id)!);
}

export function updateTarget(ctx: Context, routineId: number, targetId: number, body: unknown): TargetView {
  const row = requireTarget(ctx, routineId, targetId);
  const input = parseWith(Update, body ?? {}, ['body'], { hideInput: true });
  const target = input.target === null || input.target === undefined ? row.target : checkTarget(row.channel, input.target);
  repo.updateTarget(ctx.db, row.id, { enabled: input.enabled ?? row.enabled === 1, mode: input.mode ?? row.mode, target }, ctx.nowIso());
  return targetView(repo.getTarget(ctx.db, row.id)!);
}

/**
 * Remove a destination. What still waited to go to it (queued, or awaiting
 * review) is skipped in the same transaction, as a disabled destination's
 * deliveries are: left waiting it could only fail, and a review would count
 * it as awaiting forever. A delivery being sent finishes its attempt.
 */
export function deleteTarget(ctx: Context, routineId: number, targetId: number): TargetRemoved {
  const row = requireTarget(ctx, routineId, targetId);
  const skipped = ctx.db.transaction(() => {
    const n = repo.skipPendingOfTarget(ctx.db, row.id, 'The destination was removed before this delivery was sent.', ctx.nowIso());
    repo.deleteTarget(ctx.db, row.id);
    return n;
  })();
  return { id: row.id, routine_id: routineId, deleted: true, deliveries_skipped: skipped };
}

/**
 * A backup never carries webhook secrets (admin/tables.ts SECRET_COLUMNS): after a
 * restore each webhook destination without one gets a new secret, which its
 * receiver must be given again (`svc routine target secret`). Answers their ids.
 */
export function resecretWebhookTargets(ctx: Context): number[] {
  const ids = repo.webhookTargetsWithoutSecret(ctx.db);
  const now = ctx.nowIso();
  ctx.db.transaction(() => {
    for (const id of ids) repo.setTargetSecret(ctx.db, id, newSecret(ctx), now);
  })();
  return ids;
}

/**
 * The webhook secret, for the person configuring the receiver (the CLI prints
 * it on request; no HTTP route answers it).
 */
export function revealWebhookSecret(ctx: Context, routineId: number, targetId: number): string {
  const row = requireTarget(ctx, routineId, targetId);
  if (!row.secret) throw invalid(['target_id'], 'Only webhook destinations have a signing secret', 'not_webhook');
  return row.secret;
}

/**
 * The feed channel: one Atom file per destination in its directory,
 * newest entry first, at most FEED_MAX_ENTRIES, rewritten atomically
 * (temporary file, then rename) on each delivery. Entries are identified by
 * their delivery (id and key, see key.ts), so a second attempt after a crash
 * never adds a duplicate, and a new delivery that reuses an old id (after a
 * restore or an erase) is a new entry, not taken for one already there.
 * The entries already there are read back as XML (feed-entries.ts).
 * Errors say <target>, never the path.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { digestHtml, digestText, digestTitle, escapeXml, safeHref, type ReportBundle } from '../bundle.js';
import { DeliveryFailure, fsProblem } from '../failure.js';
import { deliveryKey } from '../key.js';
import type { DeliveryRow } from '../repo.js';
import { readFeedEntries, renderEntry, type FeedEntry } from './feed-entries.js';
import { checkDirectory } from './folder.js';
import type { ChannelInput } from './types.js';

export const FEED_MAX_ENTRIES = 50;

export const feedFileName = (targetId: number) => `svc-feed-${targetId}.atom`;

export const entryId = (delivery: Pick<DeliveryRow, 'id' | 'execution_id' | 'created_at_utc'>) => `urn:svc:delivery:${delivery.id}:${deliveryKey(delivery)}`;

/** The entry of this delivery: the digest's title, text and HTML, and the first link a digest would make live. */
function newEntry(delivery: DeliveryRow, bundle: ReportBundle, updated: string, extra: string[]): FeedEntry {
  const first = bundle.new_papers.find((p) => safeHref(p.url) !== null);
  return {
    id: entryId(delivery),
    title: digestTitle(bundle),
    updated,
    ...(first ? { link: first.url! } : {}),
    summary: digestText(bundle, extra).slice(0, 2000),
    content: digestHtml(bundle, extra),
  };
}

/** The read/write permission bits of the feed file already there (never execute bits), if there is one. */
function keptMode(file: string): number | undefined {
  try {
    const stat = fs.lstatSync(file);
    return stat.isFile() ? stat.mode & 0o666 : undefined;
  } catch {
    return undefined;
  }
}

export function renderFeed(targetId: number, routineName: string, updated: string, entries: FeedEntry[]): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>urn:svc:feed:${targetId}</id>`,
    `  <title>${escapeXml(`svc: ${routineName}`)}</title>`,
    `  <updated>${updated}</updated>`,
    '  <author><name>svc</name></author>',
    '  <generator>svc</generator>',
    ...entries.map(renderEntry),
    '</feed>',
    '',
  ].join('\n');
}

export async function sendFeed({ ctx, delivery, target, bundle, extra }: ChannelInput): Promise<void> {
  const dir = target!.target;
  checkDirectory(dir);
  const file = path.join(dir, feedFileName(target!.id));
  const temp = path.join(dir, `.svc-${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    const old = readFeedEntries(file);
    if (old.some((e) => e.id === entryId(delivery))) return; // already in the feed
    const updated = ctx.nowIso().replace(/\.\d{3}Z$/, 'Z');
    const entries = [newEntry(delivery, bundle, updated, extra), ...old].slice(0, FEED_MAX_ENTRIES);
    const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    try {
      // A new feed is owner-only; a rewrite keeps the permissions the person gave it (a feed
      // made readable for a local web server or feed reader stays readable).
      const mode = keptMode(file);
      if (mode !== undefined) fs.fchmodSync(fd, mode);
      fs.writeSync(fd, Buffer.from(renderFeed(target!.id, bundle.routine.name, updated, entries), 'utf8'));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw new DeliveryFailure(`Could not write the feed in <target>: ${fsProblem(err)}.`);
  }
}

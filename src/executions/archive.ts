/**
 * POST /api/executions/export: one zip holding, per execution, its report,
 * its log and its search record, plus a manifest. Streamed, never buffered whole.
 */
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { listEvents } from './events.js';
import { renderLog } from './log.js';
import { renderReport } from './report.js';
import { getExecution } from './repo.js';
import { searchRecord } from './search-record.js';

export const MAX_EXPORT_IDS = 200;

export function exportArchive(ctx: Context, ids: number[]): { filename: string; stream: Readable } {
  const unique = [...new Set(ids)];
  for (const id of unique) if (!getExecution(ctx.db, id)) throw notFound('execution_not_found', `No execution ${id}.`);
  const zip = new yazl.ZipFile();
  const mtime = new Date(ctx.clock.now().getTime());
  const add = (name: string, text: string) => zip.addBuffer(Buffer.from(text, 'utf8'), name, { mtime, mode: 0o644 });
  add('manifest.json', JSON.stringify({ format: 'svc-executions-export', version: 1, created_at_utc: ctx.nowIso(), execution_ids: unique }, null, 2) + '\n');
  for (const id of unique) {
    const events = [];
    for (let after = 0; ; ) {
      const batch = listEvents(ctx, id, after, 1000);
      events.push(...batch);
      if (batch.length < 1000) break;
      after = batch[batch.length - 1]!.seq;
    }
    add(`execution-${id}/report.txt`, renderReport(ctx, id)!);
    add(`execution-${id}/log.txt`, renderLog(events));
    add(`execution-${id}/search-record.json`, JSON.stringify(searchRecord(ctx, id), null, 2) + '\n');
  }
  zip.end();
  const stamp = ctx.nowIso().slice(0, 10);
  return { filename: `svc-executions-${stamp}.zip`, stream: zip.outputStream as unknown as Readable };
}

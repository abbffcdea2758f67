/**
 * Paging one source and folding its pages into the outcome: ask page after
 * page until max_results, the end, a repeating page or the page-count safety
 * net; each page's records are folded in (duplicates within the run dropped,
 * year-only sources trimmed to the exact window) and its counts added to the
 * evidence.
 */
import type { DriveOptions, SourceOutcome } from './driver.js';
import type { SourceHttp } from './http.js';
import { dateInWindow } from './normalize.js';
import type { NormalizedRecord, PageResult, SearchRequest, SourceAdapter } from './types.js';
import { ioTurn } from '../util/io-turn.js';

/** The exact window asked of a year-only source, to trim its records locally; null when none applies. */
export interface LocalWindow {
  from: string | undefined;
  to: string | undefined;
}

/** The search record keeps this many notes of values cut to the caps, and counts the rest. */
const CAP_NOTES_KEPT = 100;

/** Add a page's records not seen before (and inside `trim`) to the outcome; answers those added. */
function foldPage(outcome: SourceOutcome, page: PageResult, seen: Set<string>, trim: LocalWindow | null, maxResults: number): NormalizedRecord[] {
  const evidence = outcome.evidence;
  const capped = page.capped ?? [];
  outcome.caps.cut_total += capped.length;
  outcome.caps.cut.push(...capped.slice(0, CAP_NOTES_KEPT - outcome.caps.cut.length));
  evidence.received += page.received;
  evidence.unusable += page.unusable ?? 0;
  evidence.filtered_out += page.filteredOut ?? 0;
  evidence.rights_filtered += page.rightsFiltered ?? 0;
  if (page.total !== undefined) evidence.total_reported = page.total;
  const added: NormalizedRecord[] = [];
  for (const record of page.records) {
    if (seen.has(record.nativeId)) continue;
    if (trim && !dateInWindow(record.publicationDate, trim.from, trim.to)) {
      evidence.filtered_out++;
      continue;
    }
    seen.add(record.nativeId);
    outcome.records.push(record);
    added.push(record);
    if (outcome.records.length >= maxResults) break;
  }
  return added;
}


/**
 * Page through `entry` for `request`, folding every page into `outcome`. Answers what the source
 * said about the query (the first page's notice), if anything. Throws what the source throws.
 *
 * The next page is asked as soon as this one is folded, before `onPage` stores it: storing a page
 * (merge, events) then overlaps the source's time to answer the next one instead of adding to it.
 * Which pages are asked is decided from the folded page alone, so the requests, their politeness
 * (each still waits for its throttle slot) and the page budget are the same as asking after
 * storing; a failure of the next page surfaces only after this page is stored, as it did.
 */
export async function pageThrough(entry: SourceAdapter, request: SearchRequest, http: SourceHttp, outcome: SourceOutcome, asked: LocalWindow | null, onPage: DriveOptions['onPage']): Promise<string | undefined> {
  const caps = entry.capabilities;
  const maxResults = request.maxResults;
  const trim = caps.dateWindow === 'year' ? asked : null;
  const seen = new Set<string>();
  // A safety net against a source that never stops paging: pages needed at the size it actually
  // answers (some answer fewer than asked), plus a few; sources filtered locally declare their own.
  let pageLimit = caps.scanLimitPages ?? Math.ceil(maxResults / caps.pageSize) + 5;
  let notice: string | undefined;

  /** Whether another page may be asked: max_results not reached, the page budget not spent. */
  const mayAsk = () => {
    if (outcome.records.length >= maxResults) return false;
    if (outcome.pages >= pageLimit) {
      outcome.evidence.scan_limit_reached = true;
      return false;
    }
    return true;
  };
  /** The cursor of the page after `page`, or undefined when paging stops there. */
  const following = (page: PageResult, added: NormalizedRecord[]): string | undefined => {
    if (!page.next || page.received === 0) return undefined;
    // A cursor source hands out a cursor even with the last page (Crossref, OpenAlex): once the entries
    // received reach the total it reported, the next page can only be empty, so it is not asked.
    if (caps.paging === 'cursor' && page.total !== undefined && outcome.evidence.received >= page.total) return undefined;
    if (outcome.pages === 1 && caps.scanLimitPages === undefined && page.received < caps.pageSize) {
      pageLimit = Math.ceil(maxResults / page.received) + 5;
    }
    // A page of nothing but records already seen (and nothing filtered): the source repeats itself.
    if (added.length === 0 && (page.filteredOut ?? 0) === 0 && page.records.length > 0 && page.records.every((r) => seen.has(r.nativeId))) return undefined;
    return mayAsk() ? page.next : undefined;
  };
  const ask = (cursor: string | undefined) => {
    // Async, so an adapter that throws at once fails this request, not the storing of the page before.
    const asking = (async () => entry.fetchPage(request, cursor, http))();
    // Awaited below; until then a failure must not count as unhandled (it is thrown when awaited).
    asking.catch(() => {});
    return asking;
  };

  let next = mayAsk() ? ask(undefined) : undefined;
  while (next) {
    const page = await next;
    next = undefined;
    outcome.pages++;
    notice ??= page.notice;
    const added = foldPage(outcome, page, seen, trim, maxResults);
    const cursor = following(page, added);
    if (cursor !== undefined) {
      // A request started just before is on the wire after this: undici hands a kept-alive connection
      // back on a setImmediate once the previous answer completes, and writes the next request after.
      next = ask(cursor);
      await ioTurn();
    }
    await onPage?.({ source: entry.id, page: outcome.pages, received: page.received, kept: added.length, total: page.total, records: added, capped: page.capped ?? [] });
  }
  return notice;
}

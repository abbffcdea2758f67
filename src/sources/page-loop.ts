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

/** The exact window asked of a year-only source, to trim its records locally; null when none applies. */
export interface LocalWindow {
  from: string | undefined;
  to: string | undefined;
}

/** Add a page's records not seen before (and inside `trim`) to the outcome; answers those added. */
function foldPage(outcome: SourceOutcome, page: PageResult, seen: Set<string>, trim: LocalWindow | null, maxResults: number): NormalizedRecord[] {
  const evidence = outcome.evidence;
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
 */
export async function pageThrough(entry: SourceAdapter, request: SearchRequest, http: SourceHttp, outcome: SourceOutcome, asked: LocalWindow | null, onPage: DriveOptions['onPage']): Promise<string | undefined> {
  const caps = entry.capabilities;
  const maxResults = request.maxResults;
  const trim = caps.dateWindow === 'year' ? asked : null;
  const seen = new Set<string>();
  // A safety net against a source that never stops paging: pages needed at the size it actually
  // answers (some answer fewer than asked), plus a few; sources filtered locally declare their own.
  let pageLimit = caps.scanLimitPages ?? Math.ceil(maxResults / caps.pageSize) + 5;
  let cursor: string | undefined;
  let notice: string | undefined;
  while (outcome.records.length < maxResults) {
    if (outcome.pages >= pageLimit) {
      outcome.evidence.scan_limit_reached = true;
      break;
    }
    const page = await entry.fetchPage(request, cursor, http);
    outcome.pages++;
    notice ??= page.notice;
    const added = foldPage(outcome, page, seen, trim, maxResults);
    onPage?.({ source: entry.id, page: outcome.pages, received: page.received, kept: added.length, total: page.total, records: added });
    if (!page.next || page.received === 0) break;
    // A cursor source hands out a cursor even with the last page (Crossref, OpenAlex): once the entries
    // received reach the total it reported, the next page can only be empty, so it is not asked.
    if (caps.paging === 'cursor' && page.total !== undefined && outcome.evidence.received >= page.total) break;
    if (outcome.pages === 1 && caps.scanLimitPages === undefined && page.received < caps.pageSize) {
      pageLimit = Math.ceil(maxResults / page.received) + 5;
    }
    // A page of nothing but records already seen (and nothing filtered): the source repeats itself.
    if (added.length === 0 && (page.filteredOut ?? 0) === 0 && page.records.length > 0 && page.records.every((r) => seen.has(r.nativeId))) break;
    cursor = page.next;
  }
  return notice;
}

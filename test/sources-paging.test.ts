/**
 * The offset paging adapters share (src/sources/paging.ts): which offset a
 * page is asked at, how many entries it asks for, and the cursor after it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nextOffset, offsetPaged, pageSizeFor, type OffsetPaging } from '../src/sources/paging.js';
import type { SearchRequest } from '../src/sources/types.js';

const req = (maxResults: number) => ({ query: 'q', keywords: [], maxResults, baseUrl: 'http://127.0.0.1:9', signal: new AbortController().signal }) as SearchRequest;
const records = (n: number) => Array.from({ length: n }, (_, i) => ({ nativeId: String(i) }) as any);

test('a page asks max_results when that is fewer than a full page, and at least one', () => {
  assert.is(pageSizeFor(req(30), 100), 30);
  assert.is(pageSizeFor(req(500), 100), 100);
  assert.is(pageSizeFor(req(0), 100), 1);
});

test('the next offset is the start plus what came back, while the total says more remain', () => {
  assert.is(nextOffset(0, { received: 100, total: 250 }), '100');
  assert.is(nextOffset(200, { received: 50, total: 250 }), undefined, 'the last page');
  assert.is(nextOffset(0, { received: 0, total: 250 }), undefined, 'an empty page ends paging');
  assert.is(nextOffset(0, { received: 100 }), undefined, 'no total: no guess');
});

test('offsets from 1 (IEEE, Springer), a ceiling (CORE, Scopus), a page with no usable record (ADS)', () => {
  assert.is(nextOffset(1, { received: 100, total: 101 }, { base: 1 }), '101', 'entry 101 of 101 is still to come');
  assert.is(nextOffset(101, { received: 1, total: 101 }, { base: 1 }), undefined);
  assert.is(nextOffset(9_900, { received: 100, total: 50_000 }, { ceiling: 10_000 }), undefined);
  assert.is(nextOffset(0, { received: 100, total: 500, records: [] }, { endsWithoutRecords: true }), undefined);
  assert.is(nextOffset(0, { received: 100, total: 500, records: records(1) }, { endsWithoutRecords: true }), '100');
});

test('offsetPaged asks the first page at the base, each next one at the cursor, and hands the cursor after it on', async () => {
  const asked: [number, number][] = [];
  const paging: OffsetPaging = { pageSize: 100, base: 1 };
  const fetchPage = offsetPaged(paging, async (_req, start, size) => {
    asked.push([start, size]);
    return { records: records(2), received: 2, total: 5 };
  });
  const http = {} as any;
  const first = await fetchPage(req(40), undefined, http);
  const second = await fetchPage(req(40), first.next, http);
  const third = await fetchPage(req(40), second.next, http);
  assert.equal(asked, [[1, 40], [3, 40], [5, 40]]);
  assert.equal([first.next, second.next, third.next], ['3', '5', undefined]);
  assert.is(first.records.length, 2, 'the page itself is handed on whole');
});

test.run();

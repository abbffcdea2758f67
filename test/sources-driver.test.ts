/**
 * The driver's zero reasons and politeness rules, through a tiny adapter that
 * talks to the stub. The bodies here are the test source's own format: this
 * tests the driver, not a real repository.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource, type DriveOptions, type SourceParams } from '../src/sources/driver.js';
import { makeRecord } from '../src/sources/normalize.js';
import { RETIRED_SOURCES } from '../src/sources/retired.js';
import { createThrottle, type Throttle } from '../src/sources/throttle.js';
import { pageParser } from '../src/sources/parse-page.js';
import { ParseError, type Capabilities, type NormalizedRecord, type RateLimit, type SourceAdapter } from '../src/sources/types.js';
import { sourceContext, signal, type SourceTestContext } from './_sources.js';
import { startStub, type Expectation, type Stub } from './_stub.js';

/** A credential name the store knows; the test source uses it like NCBI does (optional, faster with it). */
const CREDENTIAL = 'ncbi_api_key';

interface Item {
  id: string;
  title?: string;
  date?: string;
  withheld?: boolean;
}

/** One page of the test source: items, the total, the next page. */
const page = (items: Item[], extra: { total?: number; next?: string } = {}) => JSON.stringify({ items, total: extra.total ?? items.length, next: extra.next });
const item = (id: string, date = '2020-05-05'): Item => ({ id, title: `Paper ${id}`, date });

/** The test source's answer as an object, or a ParseError as an adapter's parser throws. */
export function parseTestPage(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    throw new ParseError('The test source answered something that is not JSON.');
  }
}
const TEST_PAGE = pageParser(import.meta.url, parseTestPage);

function testSource(caps: Partial<Capabilities> = {}): SourceAdapter {
  return {
    id: 'drv',
    name: 'Driver test source',
    homepage: 'https://example.invalid/',
    status: 'active',
    description: 'A source that exists only in this test.',
    defaultBaseUrl: 'https://example.invalid/api',
    capabilities: { keywordQuery: true, dateWindow: 'exact', authorSearch: false, pageSize: 2, paging: 'page', rateLimit: { requests: 1, intervalMs: 1000 }, ...caps },
    async fetchPage(req, cursor, http) {
      const params = new URLSearchParams({ q: req.query, page: cursor ?? '1' });
      // The key rides in the URL like IEEE's and Springer's, so redaction is exercised too.
      if (req.apiKey) params.set('key', req.apiKey);
      const body = await http.parse(TEST_PAGE, await http.get(`${req.baseUrl}/items?${params}`));
      const items: Item[] = body.items;
      const records: NormalizedRecord[] = items
        .filter((i) => i.title && !i.withheld)
        .map((i) => makeRecord({ source: 'drv', nativeId: i.id, title: i.title!, authors: [], publicationDate: i.date }));
      return {
        records,
        total: body.total,
        received: items.length,
        unusable: items.filter((i) => !i.title).length,
        rightsFiltered: items.filter((i) => i.title && i.withheld).length,
        next: body.next,
      };
    },
  };
}

interface Run {
  caps?: Partial<Capabilities>;
  params?: Partial<SourceParams>;
  tuning?: Partial<SourceTestContext['ctx']['tuning']>;
  stored?: string;
  options?: Partial<DriveOptions>;
  /** Runs before the search (settings, injected services). */
  before?: (t: SourceTestContext) => void;
  /** Runs after the search, before the context closes (files, log lines). */
  after?: (t: SourceTestContext) => void;
}

async function drive(expectations: Expectation[], run: Run = {}) {
  const stub = await startStub(expectations);
  const t = sourceContext({ drv: stub.url }, run.tuning);
  if (run.stored) t.ctx.credentials.set(CREDENTIAL, run.stored);
  run.before?.(t);
  try {
    const started = Date.now();
    const out = await searchSource(t.ctx, testSource(run.caps), { query: 'ice', keywords: [], maxResults: 10, ...run.params }, { signal: signal(), ...run.options });
    const ms = Date.now() - started;
    run.after?.(t);
    return { out, stub, ms };
  } finally {
    await t.close();
    await stub.close();
  }
}

const required = { credential: { name: CREDENTIAL, required: true } };
const optional = { credential: { name: CREDENTIAL, required: false } };
const ok = (body: string, query?: Record<string, string>): Expectation => ({ path: '/items', query, body });

// ── credentials ──────────────────────────────────────────────────────────────

test('missing_key: a required credential absent means no request at all', async () => {
  const { out, stub } = await drive([], { caps: required });
  assert.is(out.zeroReason, 'missing_key');
  assert.is(out.request.key, 'none');
  assert.is(stub.requests.length, 0);
  assert.match(out.message!, /ncbi_api_key/);
});

test('a stored key is used and never appears in a trace', async () => {
  const key = 'stored-key-4411';
  const { out, stub } = await drive([ok(page([item('a')]), { key })], { caps: required, stored: key });
  assert.is(out.zeroReason, null);
  assert.is(out.request.key, 'stored');
  assert.is(stub.requests[0]!.query.get('key'), key);
  assert.match(out.traces[0]!.url, /key=\*\*\*/);
  assert.not.ok(JSON.stringify(out).includes(key));
});

test('an ephemeral credential wins over the stored one and is written neither to the store nor to a log line', async () => {
  const stored = 'stored-key-4411';
  const ephemeral = 'ephemeral-key-9937';
  let fileBytes = '';
  let logs: string[] = [];
  const { out, stub } = await drive([ok(page([item('a')]), { key: ephemeral })], {
    caps: required,
    stored,
    options: { ephemeralCredentials: { [CREDENTIAL]: ephemeral } },
    after: (t) => {
      fileBytes = fs.readFileSync(t.ctx.paths.credentialsFile, 'utf8');
      // Anything logged later that happens to carry the key is scrubbed: the driver registered it as a secret.
      t.ctx.log.warn(`upstream said: bad key ${ephemeral}`);
      logs = [...t.logLines];
    },
  });
  assert.is(out.request.key, 'ephemeral');
  assert.is(stub.requests[0]!.query.get('key'), ephemeral);
  assert.ok(fileBytes.includes(stored));
  assert.not.ok(fileBytes.includes(ephemeral));
  assert.ok(logs.length > 0);
  assert.not.ok(logs.some((l) => l.includes(ephemeral)));
  assert.ok(logs.some((l) => l.includes('[redacted]')));
  assert.not.ok(JSON.stringify(out).includes(ephemeral));
});

test('a 401 to a source asked without its optional key is missing_key', async () => {
  const { out } = await drive([{ path: '/items', status: 401, body: '{}' }], { caps: optional });
  assert.is(out.zeroReason, 'missing_key');
  assert.is(out.evidence.http_status, 401);
});

// ── reasons decided before asking ────────────────────────────────────────────

test('retired: a retired service is answered from the catalog, never asked', async () => {
  const t = sourceContext({});
  try {
    const mag = RETIRED_SOURCES.find((s) => s.id === 'microsoft_academic')!;
    const out = await searchSource(t.ctx, mag, { query: 'ice', keywords: [], maxResults: 5 }, { signal: signal() });
    assert.is(out.zeroReason, 'retired');
    assert.match(out.message!, /2021-12-31/);
    assert.is(out.traces.length, 0);
    assert.is(out.request.base_url, '');
  } finally {
    await t.close();
  }
});

test('window_unanswerable: a source that needs a window is given none, or one that has no date filter is given one', async () => {
  const needs = await drive([], { caps: { dateWindow: 'required' } });
  assert.is(needs.out.zeroReason, 'window_unanswerable');
  assert.is(needs.stub.requests.length, 0);
  const cannot = await drive([], { caps: { dateWindow: 'none' }, params: { dateFrom: '2020-01-01', dateTo: '2020-12-31' } });
  assert.is(cannot.out.zeroReason, 'window_unanswerable');
  assert.is(cannot.stub.requests.length, 0);
  assert.equal(cannot.out.window.asked, { from: '2020-01-01', to: '2020-12-31' });
});

test('entity_unsupported: an author asked of a source without author search', async () => {
  const { out, stub } = await drive([], { params: { author: 'Doe, J' } });
  assert.is(out.zeroReason, 'entity_unsupported');
  assert.is(stub.requests.length, 0);
});

// ── failures while asking ───────────────────────────────────────────────────

test('upstream_failure: a 500 is retried sourceMaxAttempts times, then reported with its status', async () => {
  const { out, stub } = await drive([{ path: '/items', status: 500, body: 'boom', times: 3 }], { tuning: { sourceMaxAttempts: 3 } });
  assert.is(out.zeroReason, 'upstream_failure');
  assert.is(stub.requests.length, 3);
  assert.equal(out.traces.map((tr) => tr.attempt), [1, 2, 3]);
  assert.is(out.evidence.http_status, 500);
  assert.is(out.evidence.exception_class, 'HTTPStatusError');
});

test('upstream_failure: no answer within sourceTimeoutMs is a TimeoutError', async () => {
  const { out, stub } = await drive([{ path: '/items', body: page([item('a')]), delayMs: 600, times: 2 }], { tuning: { sourceTimeoutMs: 100, sourceMaxAttempts: 2 } });
  assert.is(out.zeroReason, 'upstream_failure');
  assert.is(out.evidence.exception_class, 'TimeoutError');
  assert.is(out.evidence.network, 'timeout');
  assert.match(out.message!, /timeout after 0\.1 s/);
  assert.is(out.evidence.http_status, null);
  assert.is(stub.requests.length, 2);
  assert.is(out.traces[0]!.error, 'TimeoutError');
});

/** What undici throws when the wire fails: TypeError "fetch failed" with a coded cause. */
const wireFailure = (cause: Record<string, unknown>) => async () => {
  throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(String(cause.code)), cause) });
};

test('network: a missing host (ENOTFOUND) is named, never retried', async () => {
  let calls = 0;
  const { out, ms } = await drive([], {
    tuning: { sourceMaxAttempts: 4, sourceRetryBaseMs: 500 },
    before: (t) => {
      t.ctx.fetch = async (...args) => (calls++, wireFailure({ code: 'ENOTFOUND', hostname: 'api.example.invalid', syscall: 'getaddrinfo' })());
    },
  });
  assert.is(calls, 1, 'no retry for a DNS failure');
  assert.ok(ms < 400, `failed at once (${ms} ms)`);
  assert.is(out.zeroReason, 'upstream_failure');
  assert.equal([out.evidence.exception_class, out.evidence.network, out.evidence.http_status], ['ENOTFOUND', 'dns', null]);
  assert.match(out.message!, /ENOTFOUND api\.example\.invalid \(no such host, or no DNS\)/);
  assert.is(out.traces[0]!.error, 'ENOTFOUND');
});

test('network: a refused connection (ECONNREFUSED, a real closed port) is named, never retried', async () => {
  const closed = await startStub([]);
  const url = closed.url;
  await closed.close();
  const t = sourceContext({ drv: url }, { sourceMaxAttempts: 4, sourceRetryBaseMs: 500 });
  try {
    const out = await searchSource(t.ctx, testSource(), { query: 'ice', keywords: [], maxResults: 10 }, { signal: signal() });
    assert.equal([out.evidence.exception_class, out.evidence.network, out.traces.length], ['ECONNREFUSED', 'refused', 1]);
    assert.match(out.message!, /ECONNREFUSED 127\.0\.0\.1:\d+ \(connection refused\)/);
  } finally {
    await t.close();
  }
});

test('network: a TLS failure is named by its code; a dropped connection is retried', async () => {
  const tls = await drive([], { before: (t) => void (t.ctx.fetch = wireFailure({ code: 'CERT_HAS_EXPIRED' })) });
  assert.equal([tls.out.evidence.exception_class, tls.out.evidence.network], ['CERT_HAS_EXPIRED', 'tls']);
  assert.match(tls.out.message!, /TLS error CERT_HAS_EXPIRED talking to 127\.0\.0\.1/);
  let calls = 0;
  const reset = await drive([], {
    tuning: { sourceMaxAttempts: 3 },
    before: (t) => {
      t.ctx.fetch = async () => (calls++, wireFailure({ code: 'ECONNRESET' })());
    },
  });
  assert.is(calls, 3, 'a dropped connection may pass: retried');
  assert.equal([reset.out.evidence.exception_class, reset.out.evidence.network], ['ECONNRESET', 'reset']);
});

/** One search of the test source at `base` (the SVC_SOURCE_DRV_URL override) with the real fetch; a key rides in the URL. */
async function driveAt(base: string, tuning: Partial<SourceTestContext['ctx']['tuning']> = {}) {
  const t = sourceContext({ drv: base }, { sourceMaxAttempts: 3, ...tuning });
  t.ctx.credentials.set(CREDENTIAL, 'drv-secret-93ac1');
  try {
    return await searchSource(t.ctx, testSource(optional), { query: 'ice', keywords: [], maxResults: 10 }, { signal: signal() });
  } finally {
    await t.close();
  }
}

test('fetch refuses a blocked port (undici: "bad port", no code): the port and the setting are named, not retried, no URL in the message', async () => {
  // 6000 (X11) is on the Fetch standard's bad-port list: nothing is sent, so no server is needed.
  const out = await driveAt('http://127.0.0.1:6000/api');
  assert.is(out.zeroReason, 'upstream_failure');
  assert.is(out.message, 'Driver test source: port 6000 is blocked by fetch (a port browsers refuse too); check SVC_SOURCE_DRV_URL');
  assert.equal([out.evidence.exception_class, out.evidence.network, out.evidence.http_status, out.traces.length], ['BlockedPort', undefined, null, 1]);
  assert.is(out.traces[0]!.error, 'BlockedPort');
  assert.not.ok(JSON.stringify(out).includes('drv-secret-93ac1'));
});

test('an SVC_SOURCE_*_URL with a user name or password (fetch refuses to send it) names the setting; not retried, neither quoted', async () => {
  const out = await driveAt('http://proxyuser:proxy-pass-71d@127.0.0.1:4000/api');
  assert.is(out.message, 'Driver test source: the URL carries a user name or password, which fetch refuses to send; remove them from SVC_SOURCE_DRV_URL');
  assert.equal([out.evidence.exception_class, out.traces.length], ['URLCredentials', 1]);
  assert.not.ok(/proxyuser|proxy-pass-71d/.test(JSON.stringify(out)), 'neither the user name nor the password is kept');
});

test('an SVC_SOURCE_*_URL fetch cannot parse, or with a scheme other than http(s), names the setting; not retried, no network kind', async () => {
  const invalid = await driveAt('http://exa mple.org/api');
  assert.is(invalid.message, 'Driver test source: invalid URL in SVC_SOURCE_DRV_URL (fetch cannot parse it)');
  assert.equal([invalid.evidence.exception_class, invalid.evidence.network, invalid.traces.length], ['InvalidURL', undefined, 1]);
  // undici's own error quotes the whole URL with its key ("Failed to parse URL from …?key=…"): none of it is kept.
  assert.not.ok(JSON.stringify(invalid).includes('drv-secret-93ac1'));
  const ftp = await driveAt('ftp://127.0.0.1/api');
  assert.is(ftp.message, 'Driver test source: "ftp:" is not a scheme fetch can use; start SVC_SOURCE_DRV_URL with http:// or https://');
  // A missing http:// reads as a scheme too ("localhost:").
  const bare = await driveAt('localhost:8080/api');
  assert.is(bare.message, 'Driver test source: "localhost:" is not a scheme fetch can use; start SVC_SOURCE_DRV_URL with http:// or https://');
  assert.equal([ftp.evidence.exception_class, ftp.traces.length], ['UnsupportedScheme', 1]);
});

test('a failure whose cause has no code: its words are kept (URLs and keys out), and it is retried', async () => {
  let calls = 0;
  const { out } = await drive([], {
    stored: 'drv-secret-93ac1',
    caps: optional,
    tuning: { sourceMaxAttempts: 2 },
    before: (t) => {
      t.ctx.fetch = async (input) => {
        calls++;
        throw new TypeError('fetch failed', { cause: new Error(`other side closed while reading ${String(input)}`) });
      };
    },
  });
  assert.is(calls, 2);
  assert.is(out.message, 'Driver test source: request failed (TypeError: other side closed while reading <url>)');
  assert.is(out.evidence.exception_class, 'TypeError');
  assert.not.ok(JSON.stringify(out).includes('drv-secret-93ac1'));
});

test('upstream_failure: a 404 is not retried', async () => {
  const { out, stub } = await drive([{ path: '/items', status: 404, body: 'no' }], { tuning: { sourceMaxAttempts: 4 } });
  assert.is(out.zeroReason, 'upstream_failure');
  assert.is(out.evidence.http_status, 404);
  assert.is(stub.requests.length, 1);
});

test('a 429 with Retry-After: 1 waits about a second, then the retry succeeds', async () => {
  const { out, stub } = await drive([
    { path: '/items', status: 429, headers: { 'retry-after': '1' }, body: '' },
    ok(page([item('a')])),
  ]);
  assert.is(out.zeroReason, null);
  assert.is(out.records.length, 1);
  assert.is(stub.requests.length, 2);
  assert.ok(stub.requests[1]!.at - stub.requests[0]!.at >= 950, `waited ${stub.requests[1]!.at - stub.requests[0]!.at} ms`);
  assert.is(out.traces[0]!.retry_after_ms, 1000);
});

test('a Retry-After beyond sourceMaxRetryAfterMs fails at once with the wait as evidence', async () => {
  const { out, stub, ms } = await drive([{ path: '/items', status: 429, headers: { 'retry-after': '120' }, body: '' }], { tuning: { sourceMaxRetryAfterMs: 5000 } });
  assert.is(out.zeroReason, 'upstream_failure');
  assert.is(out.evidence.http_status, 429);
  assert.is(out.evidence.retry_after_ms, 120_000);
  assert.is(stub.requests.length, 1);
  assert.ok(ms < 1000);
});

test('parse_failure: an answer that is not JSON', async () => {
  const { out } = await drive([ok('<html>maintenance</html>')]);
  assert.is(out.zeroReason, 'parse_failure');
  assert.is(out.evidence.exception_class, 'ParseError');
  assert.is(out.evidence.http_status, null);
});

// ── empty answers ───────────────────────────────────────────────────────────

test('records_unusable: every entry lacked a title', async () => {
  const { out } = await drive([ok(page([{ id: 'a' }, { id: 'b' }]))]);
  assert.is(out.zeroReason, 'records_unusable');
  assert.is(out.evidence.received, 2);
  assert.is(out.evidence.unusable, 2);
  assert.is(out.evidence.usable, 0);
});

test('rights_filtered: the source withheld every entry', async () => {
  const { out } = await drive([ok(page([{ ...item('a'), withheld: true }, { ...item('b'), withheld: true }]))]);
  assert.is(out.zeroReason, 'rights_filtered');
  assert.is(out.evidence.rights_filtered, 2);
});

test('answered_empty: nothing found, with the counts', async () => {
  const { out } = await drive([ok(page([], { total: 0 }))]);
  assert.is(out.zeroReason, 'answered_empty');
  assert.is(out.message, 'Driver test source found nothing for this query.');
  assert.is(out.evidence.received, 0);
  assert.is(out.evidence.total_reported, 0);
  assert.is(out.pages, 1);
});

// ── partial answers and paging ──────────────────────────────────────────────

test('a failure on page 2 keeps the page-1 records: partialFailure set, no zero reason', async () => {
  const { out } = await drive(
    [ok(page([item('a'), item('b')], { total: 9, next: '2' }), { page: '1' }), { path: '/items', query: { page: '2' }, status: 503, body: '', times: 2 }],
    { tuning: { sourceMaxAttempts: 2 } },
  );
  assert.is(out.zeroReason, null);
  assert.equal(out.records.map((r) => r.nativeId), ['a', 'b']);
  assert.is(out.partialFailure?.http_status, 503);
  assert.is(out.partialFailure?.exception_class, 'HTTPStatusError');
  assert.match(out.message!, /^Stopped after page 1/);
});

test('cancel while a page is stored: cancelled, the records already found are kept, the next page (already asked) is not', async () => {
  const controller = new AbortController();
  const { out, stub } = await drive([ok(page([item('a'), item('b')], { total: 9, next: '2' }), { page: '1' }), { ...ok(page([item('c')], { total: 9, next: '3' }), { page: '2' }), delayMs: 500 }], {
    options: { signal: controller.signal, onPage: () => controller.abort() },
  });
  assert.is(out.cancelled, true);
  assert.equal(out.records.map((r) => r.nativeId), ['a', 'b']);
  assert.is(out.zeroReason, null);
  assert.is(out.pages, 1);
  // Page 2 was on the wire while page 1 was stored; the cancel aborted it, and nothing after it was asked.
  assert.equal(out.traces.map((t) => t.status), [200, null]);
  assert.ok(stub.requests.length <= 2);
});

test('the next page is asked before the page before it is stored (storing overlaps the wait for the source)', async () => {
  const order: string[] = [];
  const { out } = await drive(
    [
      ok(page([item('a'), item('b')], { total: 5, next: '2' }), { page: '1' }),
      ok(page([item('c'), item('d')], { total: 5, next: '3' }), { page: '2' }),
      ok(page([item('e')], { total: 5 }), { page: '3' }),
    ],
    {
      before: (t) => {
        const real = t.ctx.fetch;
        t.ctx.fetch = (input, init) => (order.push(`ask ${new URL(String(input)).searchParams.get('page')}`), real(input, init));
      },
      options: { onPage: (p) => void order.push(`store ${p.page}`) },
    },
  );
  assert.equal(order, ['ask 1', 'ask 2', 'store 1', 'ask 3', 'store 2', 'store 3']);
  assert.equal(out.records.map((r) => r.nativeId), ['a', 'b', 'c', 'd', 'e']);
  assert.is(out.pages, 3);
});

test('no page is asked that would not be asked after storing: max_results, the end and the page budget decide before the store', async () => {
  const asked: string[] = [];
  const count = (t: SourceTestContext) => {
    const real = t.ctx.fetch;
    t.ctx.fetch = (input, init) => (asked.push(new URL(String(input)).searchParams.get('page')!), real(input, init));
  };
  // max_results reached on page 2: page 3 is never asked, though the source offers it.
  await drive([ok(page([item('a'), item('b')], { total: 9, next: '2' }), { page: '1' }), ok(page([item('c'), item('d')], { total: 9, next: '3' }), { page: '2' })], {
    params: { maxResults: 4 },
    before: count,
  });
  assert.equal(asked, ['1', '2']);
  // The page budget (scanLimitPages): the last page allowed is stored, the next one never asked.
  asked.length = 0;
  const { out } = await drive([ok(page([item('a'), item('b')], { total: 9, next: '2' }), { page: '1' }), ok(page([item('c'), item('d')], { total: 9, next: '3' }), { page: '2' })], {
    caps: { scanLimitPages: 2 },
    before: count,
  });
  assert.equal(asked, ['1', '2']);
  assert.is(out.evidence.scan_limit_reached, true);
});

test('a failure of the page asked ahead is recorded after the page before it is stored, as a partial failure', async () => {
  const stored: number[] = [];
  let calls = 0;
  const { out } = await drive([ok(page([item('a'), item('b')], { total: 9, next: '2' }), { page: '1' })], {
    before: (t) => {
      const real = t.ctx.fetch;
      // Page 2 fails on the wire at once (a refused connection is not retried), before page 1 is stored.
      t.ctx.fetch = (input, init) => (++calls === 1 ? real(input, init) : wireFailure({ code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 })());
    },
    options: { onPage: (p) => void stored.push(p.page) },
  });
  assert.equal(stored, [1]);
  assert.equal(out.records.map((r) => r.nativeId), ['a', 'b']);
  assert.is(out.zeroReason, null);
  assert.is(out.pages, 1);
  assert.is(out.partialFailure?.exception_class, 'ECONNREFUSED');
  assert.match(out.message!, /^Stopped after page 1/);
});

test('a failure of the page handler (svc storing records) is thrown, never recorded as the source\'s parse_failure', async () => {
  const local = new Error('SQLITE_FULL: database or disk is full');
  let caught: unknown;
  try {
    await drive([ok(page([item('a')]))], { options: { onPage: () => { throw local; } } });
  } catch (err) {
    caught = err;
  }
  assert.is(caught, local);
});

test('a failure of the page handler stops the page asked ahead: no request of the source runs on after the throw', async () => {
  const local = new Error('SQLITE_FULL: database or disk is full');
  const signals: AbortSignal[] = [];
  let caught: unknown;
  try {
    await drive([ok(page([item('a'), item('b')], { total: 9, next: '2' }), { page: '1' }), { ...ok(page([item('c')], { total: 9, next: '3' }), { page: '2' }), delayMs: 1500 }], {
      before: (t) => {
        const real = t.ctx.fetch;
        t.ctx.fetch = (input, init) => (signals.push(init!.signal!), real(input, init));
      },
      options: {
        onPage: () => {
          throw local;
        },
      },
    });
  } catch (err) {
    caught = err;
  }
  assert.is(caught, local);
  await new Promise((resolve) => setTimeout(resolve, 100)); // a request still on its way to the wire gets there
  // Storing page 1 failed: the run is over, so page 2 (asked while page 1 was being stored) is abandoned
  // instead of going on in the background (retries, the source's rate-limit slots) for nobody.
  assert.ok(signals.every((s) => s.aborted) || signals.length === 1, `${signals.length} requests, ${signals.filter((s) => !s.aborted).length} still running`);
});

test('cancel during a request: cancelled, nothing found, the reason not recorded', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const { out, ms } = await drive([{ path: '/items', body: page([item('a')]), delayMs: 1500 }], { options: { signal: controller.signal } });
  assert.is(out.cancelled, true);
  assert.is(out.zeroReason, 'not_recorded');
  assert.ok(ms < 1000);
});

test('max_results stops paging', async () => {
  const { out, stub } = await drive(
    [ok(page([item('a'), item('b')], { total: 9, next: '2' }), { page: '1' }), ok(page([item('c'), item('d')], { total: 9, next: '3' }), { page: '2' })],
    { params: { maxResults: 3 } },
  );
  assert.equal(out.records.map((r) => r.nativeId), ['a', 'b', 'c']);
  assert.is(stub.requests.length, 2);
  assert.is(out.pages, 2);
});

test("'year' window support: whole years are asked, records are trimmed to the exact window here", async () => {
  const items = [item('jan', '2020-01-15'), item('jun', '2020-06-01'), item('dec', '2020-12-31'), item('year-only', '2020'), { id: 'undated', title: 'Paper undated' }];
  const { out } = await drive([ok(page(items))], { caps: { dateWindow: 'year' }, params: { dateFrom: '2020-03-01', dateTo: '2020-06-30' } });
  assert.equal(out.window.answered, { from: '2020-01-01', to: '2020-12-31' });
  // A record dated only by its year might fall inside, so it stays; an undated one cannot be placed.
  assert.equal(out.records.map((r) => r.nativeId), ['jun', 'year-only']);
  assert.is(out.evidence.filtered_out, 3);
});

test("'year' window support: when everything falls outside, the answer is answered_empty with filtered_out", async () => {
  const { out } = await drive([ok(page([item('jan', '2020-01-15')]))], { caps: { dateWindow: 'year' }, params: { dateFrom: '2020-03-01', dateTo: '2020-06-30' } });
  assert.is(out.zeroReason, 'answered_empty');
  assert.is(out.evidence.filtered_out, 1);
  assert.match(out.message!, /date window/);
});

// ── politeness ──────────────────────────────────────────────────────────────

test('createThrottle spaces requests: 3 slots at 100 ms take at least 200 ms', async () => {
  const throttle = createThrottle(() => Date.now(), 1);
  const rate = { requests: 10, intervalMs: 1000 };
  const started = Date.now();
  const at: number[] = [];
  for (let i = 0; i < 3; i++) {
    await throttle.acquire(rate, signal());
    at.push(Date.now() - started);
  }
  assert.ok(at[2]! >= 195, `third slot at ${at[2]} ms`);
  // Slots are fixed on a schedule (0, 100, 200 ms): a late wake-up shortens the next gap, never a slot.
  assert.ok(at[1]! >= 95 && at[2]! >= 195, JSON.stringify(at));
});

test('the driver spaces one source’s requests by its rate limit', async () => {
  // Slots are timed where the throttle lets each request go (arrival times at the stub carry the
  // machine's scheduling noise); every request must reach the stub only after its slot.
  const released: number[] = [];
  const real = createThrottle(() => Date.now(), 1);
  const timed: Throttle = { acquire: async (rate, sig) => void (await real.acquire(rate, sig), released.push(Date.now())) };
  const { stub } = await drive(
    [ok(page([item('a')], { total: 9, next: '2' }), { page: '1' }), ok(page([item('b')], { total: 9, next: '3' }), { page: '2' }), ok(page([item('c')]), { page: '3' })],
    { caps: { rateLimit: { requests: 10, intervalMs: 1000 } }, before: (t) => void t.ctx.service('sources.throttles', () => new Map<string, Throttle>()).set('drv', timed) },
  );
  assert.is(stub.requests.length, 3);
  // Slot i is i spacings after the first (a late slot does not push the next ones); 1 ms of timer rounding.
  const offsets = released.map((at) => at - released[0]!);
  assert.ok(offsets.every((o, i) => o >= i * 100 - 1), JSON.stringify(offsets));
  assert.ok(stub.requests.every((r, i) => r.at >= released[i]!), 'no request before its slot');
});

test('rateLimitWithKey applies exactly when a key is sent', async () => {
  const slow: RateLimit = { requests: 3, intervalMs: 1000 };
  const fast: RateLimit = { requests: 10, intervalMs: 1000 };
  const seen: RateLimit[] = [];
  // The process-wide throttle of the test source, replaced by one that records the rate it is asked for.
  const recording: Throttle = { acquire: async (rate) => void seen.push(rate) };
  const inject = (t: SourceTestContext) => t.ctx.service('sources.throttles', () => new Map<string, Throttle>()).set('drv', recording);
  const caps = { ...optional, rateLimit: slow, rateLimitWithKey: fast };
  await drive([ok(page([item('a')]))], { caps, stored: 'stored-key-4411', before: inject });
  await drive([ok(page([item('a')]))], { caps, before: inject });
  assert.equal(seen, [fast, slow]);
});

test('the User-Agent names svc and the contact address', async () => {
  const withContact = await drive([ok(page([item('a')]))], { before: (t) => t.ctx.settings.write('email', { contact_email: 'me@example.org' }) });
  assert.match(String(withContact.stub.requests[0]!.headers['user-agent']), /^svc\/\d+\.\d+\.\d+\S* \(local research-paper collector; mailto:me@example\.org\)$/);
  const without = await drive([ok(page([item('a')]))]);
  assert.match(String(without.stub.requests[0]!.headers['user-agent']), /^svc\/\S+ \(local research-paper collector\)$/);
});

test.run();

/**
 * The links of a digest (email HTML, the Atom feed): a URL a source gave — a
 * paper's or a lifecycle notice's (Crossref relations carry any URI) — becomes
 * a live link only when it is http(s) without a user name or password; the
 * text around it is escaped. Built from bundles directly: no server needed.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { digestHtml, safeHref, type ReportBundle } from '../src/delivery/bundle.js';
import { sendFeed } from '../src/delivery/channels/feed.js';
import type { FollowNews } from '../src/follow/check.js';

const DECEPTIVE = 'https://doi.org@attacker.example/retraction';
const SCRIPT = 'javascript:alert(document.cookie)';

function paper(id: number, url: string | null, title = `Paper ${id}`) {
  return { id, title, authors: ['A. Author'], year: 2024, publication_date: null, venue: null, doi: null, url, is_new: true };
}

function notice(id: number, notice_url: string, title: string) {
  return {
    id, document_id: id, title, doi: null, kind: 'retraction' as const, source: 'crossref', notice_url, notice_doi: null, label: 'Retraction',
    event_date: '2026-01-02', detected_at_utc: '2026-01-02T00:00:00.000Z', run_id: 1, detail: {}, basis: 'orcid', matched_author: null,
  };
}

function bundle(papers: ReturnType<typeof paper>[], follow: FollowNews | null = null): ReportBundle {
  return {
    format: 'svc-report-bundle', version: 1, delivery_id: 1, delivery_key: '0123456789abcdef',
    routine: { id: 1, name: 'r' },
    execution: { id: 7, type: 'routine', status: 'completed', query: 'q', author: null, started_at_utc: '2026-01-02T00:00:00.000Z', finished_at_utc: '2026-01-02T00:01:00.000Z' },
    counts: { results: papers.length, new: papers.length }, new_papers: papers, papers, papers_truncated: false, report_text: '', follow,
  };
}

function followNews(events: ReturnType<typeof notice>[]): FollowNews {
  return {
    profile_id: 1, profile_name: 'Jane <b>Doe</b>', mode: 'retractions', papers: events.length, checked: events.length, failed: 0, not_reached: 0, check_limit: 500,
    lookup_errors: [], error: null, events, kinds_reported: ['retraction', 'version_change'], what_a_kind_means: {},
  } as unknown as FollowNews;
}

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

test('safeHref: http(s) without a user name or password only', () => {
  assert.is(safeHref('https://doi.org/10.1/x'), 'https://doi.org/10.1/x');
  assert.is(safeHref('HTTP://example.org/a?b=1'), 'HTTP://example.org/a?b=1');
  for (const url of [DECEPTIVE, 'https://user:pw@example.org/', 'https://:pw@example.org/', SCRIPT, 'data:text/html,<b>x</b>', 'crossref:W123', 'https://', null, '']) {
    assert.is(safeHref(url), null, String(url));
  }
});

test('a notice link from an upstream record: javascript: and a URL with a user name are shown as text, never live; titles escaped', () => {
  const html = digestHtml(bundle([], followNews([
    notice(1, SCRIPT, 'A <script>alert(1)</script> paper'),
    notice(2, DECEPTIVE, 'Quote " and & amp'),
    notice(3, 'https://doi.org/10.1000/notice', 'Fine'),
  ])));
  assert.equal(hrefs(html), ['https://doi.org/10.1000/notice'], html);
  assert.ok(html.includes(DECEPTIVE.replace(/&/g, '&amp;')), 'the deceptive URL is still shown, as text');
  assert.not.ok(html.includes('<script>'), html);
  assert.ok(html.includes('Quote &quot; and &amp; amp'));
  assert.ok(html.includes('Jane &lt;b&gt;Doe&lt;/b&gt;'));
});

test("a paper's link in the digest: the same rule", () => {
  const html = digestHtml(bundle([paper(1, DECEPTIVE, 'Deceived'), paper(2, SCRIPT), paper(3, 'https://example.org/p3', 'Title <i>x</i>')]));
  assert.equal(hrefs(html), ['https://example.org/p3'], html);
  assert.ok(html.includes('Title &lt;i&gt;x&lt;/i&gt;'));
});

test("the feed entry's alternate link is the first paper link a digest would make live", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-feed-links-'));
  try {
    const ctx = { nowIso: () => '2026-01-02T00:02:00.000Z' } as any;
    const delivery = { id: 1, execution_id: 7, created_at_utc: '2026-01-02T00:01:00.000Z' } as any;
    await sendFeed({ ctx, delivery, target: { id: 3, target: dir } as any, bundle: bundle([paper(1, DECEPTIVE), paper(2, 'https://example.org/ok')]), extra: [] });
    const feed = fs.readFileSync(path.join(dir, 'svc-feed-3.atom'), 'utf8');
    assert.equal([...feed.matchAll(/<link rel="alternate" href="([^"]*)"/g)].map((m) => m[1]), ['https://example.org/ok'], feed);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

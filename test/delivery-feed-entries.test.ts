/**
 * The feed channel reads its own Atom file back with the XML parser: entries
 * another program re-indented are kept, one a person commented out stays out,
 * and what an entry says survives being read and written again. Built from
 * bundles directly: no server needed.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReportBundle } from '../src/delivery/bundle.js';
import { sendFeed } from '../src/delivery/channels/feed.js';

function paper(id: number, title: string, url: string | null = `https://example.org/p${id}`) {
  return { id, title, authors: ['A. Author'], year: 2024, publication_date: null, venue: null, doi: null, url, is_new: true };
}

function bundle(papers: ReturnType<typeof paper>[]): ReportBundle {
  return {
    format: 'svc-report-bundle', version: 1, delivery_id: 1, delivery_key: '0123456789abcdef',
    routine: { id: 1, name: "Ann's & Bob's <watch>" },
    execution: { id: 7, type: 'routine', status: 'completed', query: 'q', author: null, started_at_utc: '2026-01-02T00:00:00.000Z', finished_at_utc: '2026-01-02T00:01:00.000Z' },
    counts: { results: papers.length, new: papers.length }, new_papers: papers, papers, papers_truncated: false, report_text: '', follow: null,
  };
}

const ctx = { nowIso: () => '2026-01-02T00:02:00.000Z' } as any;
const delivery = (id: number) => ({ id, execution_id: 7, created_at_utc: `2026-01-02T00:0${id % 10}:00.000Z` }) as any;
const entryIds = (text: string) => [...text.matchAll(/<id>(urn:svc:delivery:\d+):[0-9a-f]{16}<\/id>/g)].map((m) => m[1]);

async function inFeedDir(body: (dir: string, file: string) => Promise<void>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-feed-entries-'));
  try {
    await body(dir, path.join(dir, 'svc-feed-3.atom'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const send = (dir: string, id: number, papers = [paper(id, `Paper ${id}`)]) => sendFeed({ ctx, delivery: delivery(id), target: { id: 3, target: dir } as any, bundle: bundle(papers), extra: [] });

test('a feed another program re-indented (tabs, an entry on one line) keeps its entries at the next delivery', async () => {
  await inFeedDir(async (dir, file) => {
    await send(dir, 1);
    await send(dir, 2);
    // What a formatter or a hand edit may leave: tabs instead of two spaces, one entry on a single line.
    const reformatted = fs.readFileSync(file, 'utf8').replace(/^ {2}/gm, '\t').replace(/^ {2}/gm, '\t');
    const oneLine = reformatted.replace(/<entry>[\s\S]*?<\/entry>/, (e) => e.replace(/\n\s*/g, ''));
    fs.writeFileSync(file, oneLine);
    await send(dir, 3);
    assert.equal(entryIds(fs.readFileSync(file, 'utf8')), ['urn:svc:delivery:3', 'urn:svc:delivery:2', 'urn:svc:delivery:1']);
  });
});

test('an entry a person commented out is not brought back by the next delivery', async () => {
  await inFeedDir(async (dir, file) => {
    await send(dir, 1);
    await send(dir, 2);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace(/( {2}<entry>\n {4}<id>urn:svc:delivery:1:[\s\S]*?<\/entry>)/, '<!--\n$1\n-->'));
    await send(dir, 3);
    assert.equal(entryIds(fs.readFileSync(file, 'utf8')), ['urn:svc:delivery:3', 'urn:svc:delivery:2']);
  });
});

test('an entry read back and written again says what it said: title, link, summary and HTML, quotes and ampersands included', async () => {
  await inFeedDir(async (dir, file) => {
    await send(dir, 1, [paper(1, `Rock 'n' roll & "quotes" <i>in</i> a title`, 'https://example.org/a?x=1&y=2')]);
    const before = fs.readFileSync(file, 'utf8').match(/ {2}<entry>[\s\S]*?<\/entry>/)![0];
    await send(dir, 2);
    const entries = fs.readFileSync(file, 'utf8').match(/ {2}<entry>[\s\S]*?<\/entry>/g)!;
    assert.is(entries.length, 2);
    assert.is(entries[1], before);
  });
});

test('a file that is not well-formed XML starts a new feed; other entries in it are not taken for svc\'s', async () => {
  await inFeedDir(async (dir, file) => {
    fs.writeFileSync(file, '<feed><entry><id>urn:svc:delivery:9:0123456789abcdef</id></entry>');
    await send(dir, 1);
    assert.equal(entryIds(fs.readFileSync(file, 'utf8')), ['urn:svc:delivery:1']);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('</feed>', '  <entry><id>urn:other:1</id><title>not ours</title></entry>\n</feed>'));
    await send(dir, 2);
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(entryIds(text), ['urn:svc:delivery:2', 'urn:svc:delivery:1']);
    assert.not.ok(text.includes('urn:other:1'));
  });
});

test.run();

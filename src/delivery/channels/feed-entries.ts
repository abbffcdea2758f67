/**
 * A feed's entries as data: read back from the Atom file svc wrote before
 * (with the XML parser, so an entry a reader or an editor re-indented is still
 * found and one a person commented out stays out) and written out again, each
 * field escaped. Only entries that name a delivery are svc's; the rest, and a
 * file that is not well-formed XML, are not carried over.
 */
import fs from 'node:fs';
import { XMLValidator } from 'fast-xml-parser';
import { xmlParser } from '../../util/xml-parser.js';
import { escapeXml } from '../bundle.js';

export interface FeedEntry {
  /** urn:svc:delivery:<id>:<key> (feed.ts entryId). */
  id: string;
  title: string;
  updated: string;
  /** The alternate link, when the entry has one. */
  link?: string;
  summary: string;
  /** The digest as HTML, unescaped. */
  content: string;
}

const DELIVERY_ENTRY_ID = /^urn:svc:delivery:\d+(?::[0-9a-f]{16})?$/;

// The text is written back as it was read: no trimming, and &#39; (escapeXml's apostrophe) decoded with the named entities.
const parser = xmlParser({ arrays: ['entry', 'link'], trimValues: false, htmlEntities: true });

/** The text of an element that may be a string, an object with attributes and #text, or absent. */
function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object' && typeof (node as Record<string, unknown>)['#text'] === 'string') return (node as Record<string, string>)['#text'];
  return '';
}

function entryOf(node: any): FeedEntry | undefined {
  const id = textOf(node?.id).trim();
  if (!DELIVERY_ENTRY_ID.test(id)) return undefined;
  const links: any[] = Array.isArray(node.link) ? node.link : [];
  const link = links.find((l) => (l?.['@_rel'] ?? 'alternate') === 'alternate')?.['@_href'];
  return {
    id,
    title: textOf(node.title),
    updated: textOf(node.updated).trim(),
    ...(typeof link === 'string' ? { link } : {}),
    summary: textOf(node.summary),
    content: textOf(node.content),
  };
}

/** The delivery entries of the feed at `file`, in its order; none when there is no file or it is not a feed svc can read. */
export function readFeedEntries(file: string): FeedEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  if (XMLValidator.validate(text) !== true) return [];
  let doc: any;
  try {
    doc = parser.parse(text);
  } catch {
    // The parser refuses what it will not do (an external entity, an expansion past its bounds): not a feed svc wrote.
    return [];
  }
  const entries: unknown[] = Array.isArray(doc?.feed?.entry) ? doc.feed.entry : [];
  return entries.map(entryOf).filter((e): e is FeedEntry => e !== undefined);
}

export function renderEntry(entry: FeedEntry): string {
  return [
    '  <entry>',
    `    <id>${escapeXml(entry.id)}</id>`,
    `    <title>${escapeXml(entry.title)}</title>`,
    `    <updated>${escapeXml(entry.updated)}</updated>`,
    entry.link !== undefined ? `    <link rel="alternate" href="${escapeXml(entry.link)}"/>` : '',
    `    <summary>${escapeXml(entry.summary)}</summary>`,
    `    <content type="html">${escapeXml(entry.content)}</content>`,
    '  </entry>',
  ]
    .filter(Boolean)
    .join('\n');
}

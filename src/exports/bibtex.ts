/**
 * BibTeX that real parsers accept: LaTeX special characters escaped, Unicode
 * kept as is (biber and modern bibtex read UTF-8), keys unique within the file.
 *
 * BibTeX finds a field's end by counting braces, backslash or not: `\{` counts
 * as an opening brace, so a title with one lone brace would swallow the fields
 * after it. Every brace written here is therefore one of a pair this file
 * writes; a brace from the text becomes \textbraceleft{} or \textbraceright{}.
 */
import type { DocumentView } from '../corpus/read.js';

const SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '%': '\\%',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
};

export function escapeLatex(text: string): string {
  return text.replace(/[\\{}%$&#_^~]/g, (c) => SPECIAL[c]!).replace(/\s+/g, ' ').trim();
}

/**
 * A verbatim field (doi, url, eprint): biber and the url package read it
 * character for character, so LaTeX escapes would end up inside the DOI or
 * link (`10.1000/a\_b` is not a DOI). Only what would break the entry is
 * changed: braces and backslashes are percent-encoded (doi.org and every web
 * server decode them), white space is dropped.
 */
export function verbatimField(text: string): string {
  return text.replace(/\s+/g, '').replace(/[{}\\]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

function asciiFold(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9]/g, '');
}

const STOP = new Set(['a', 'an', 'the', 'on', 'of', 'in', 'for', 'and', 'to', 'with', 'from', 'by', 'at', 'is', 'are']);

function baseKey(doc: DocumentView): string {
  const first = doc.authors[0];
  const family = asciiFold(first?.family ?? first?.name.split(' ').pop() ?? '').toLowerCase() || 'anon';
  const word = doc.title.split(/\s+/).map((w) => asciiFold(w).toLowerCase()).find((w) => w && !STOP.has(w)) ?? 'untitled';
  return `${family}${doc.year ?? 'nd'}${word}`;
}

/** Unique keys: the first gets the base, later ones a, b, … z, then aa, ab … */
export function uniqueKeys(docs: DocumentView[]): string[] {
  const used = new Set<string>();
  return docs.map((doc) => {
    const base = baseKey(doc);
    let key = base;
    for (let n = 0; used.has(key); n++) key = base + suffix(n);
    used.add(key);
    return key;
  });
}

function suffix(n: number): string {
  let s = '';
  let x = n;
  do {
    s = String.fromCharCode(97 + (x % 26)) + s;
    x = Math.floor(x / 26) - 1;
  } while (x >= 0);
  return s;
}

function entryType(doc: DocumentView): string {
  switch (doc.type) {
    case 'journal-article':
    case 'article':
    case 'review':
      return doc.venue ? 'article' : 'misc';
    case 'proceedings-article':
    case 'proceedings':
    case 'conference-paper':
    case 'inproceedings':
      return 'inproceedings';
    case 'book':
    case 'monograph':
      return 'book';
    case 'book-chapter':
    case 'chapter':
      return 'incollection';
    case 'dissertation':
    case 'thesis':
      return 'phdthesis';
    case 'report':
      return 'techreport';
    default:
      return doc.venue && doc.type !== 'preprint' ? 'article' : 'misc';
  }
}

function authorField(doc: DocumentView): string | undefined {
  if (doc.authors.length === 0) return undefined;
  return doc.authors
    .map((a) => (a.family && a.given ? `${escapeLatex(a.family)}, ${escapeLatex(a.given)}` : `{${escapeLatex(a.name)}}`))
    .join(' and ');
}

export function renderBibtex(docs: DocumentView[], options: { includeIds?: boolean } = {}): string {
  const keys = uniqueKeys(docs);
  return docs
    .map((doc, i) => {
      const type = entryType(doc);
      const venueField = type === 'inproceedings' || type === 'incollection' ? 'booktitle' : type === 'article' ? 'journal' : 'howpublished';
      const month = doc.publication_date && doc.publication_date.length >= 7 ? String(Number(doc.publication_date.slice(5, 7))) : undefined;
      const fields: [string, string | undefined][] = [
        ['title', `{${escapeLatex(doc.title)}}`],
        ['author', authorField(doc)],
        [venueField, doc.venue ? escapeLatex(doc.venue) : undefined],
        ['year', doc.year ? String(doc.year) : undefined],
        ['month', month],
        ['doi', doc.doi ? verbatimField(doc.doi) : undefined],
        ['url', doc.url ? verbatimField(doc.url) : undefined],
        ['eprint', doc.arxiv_id ? verbatimField(doc.arxiv_id) : undefined],
        ['archiveprefix', doc.arxiv_id ? 'arXiv' : undefined],
        ['pmid', doc.pmid ? escapeLatex(doc.pmid) : undefined],
        ['keywords', doc.categories.length ? escapeLatex(doc.categories.join(', ')) : undefined],
        ['abstract', doc.abstract ? escapeLatex(doc.abstract) : undefined],
        ['note', doc.is_retracted ? 'Retracted' : undefined],
        ['svc_id', options.includeIds ? String(doc.id) : undefined],
      ];
      const body = fields
        .filter((f): f is [string, string] => f[1] !== undefined && f[1] !== '')
        .map(([k, v]) => `  ${k} = {${v}}`)
        .join(',\n');
      return `@${type}{${keys[i]},\n${body}\n}\n`;
    })
    .join('\n');
}

/** RIS with the standard tags, CRLF line ends, one AU line per author, ending each record with ER. */
import type { DocumentView } from '../corpus/read.js';

function risType(doc: DocumentView): string {
  switch (doc.type) {
    case 'journal-article':
    case 'article':
    case 'review':
      return 'JOUR';
    case 'proceedings':
    case 'proceedings-article':
    case 'conference-paper':
    case 'inproceedings':
      return 'CPAPER';
    case 'book':
    case 'monograph':
      return 'BOOK';
    case 'book-chapter':
    case 'chapter':
      return 'CHAP';
    case 'dissertation':
    case 'thesis':
      return 'THES';
    case 'report':
      return 'RPRT';
    case 'dataset':
      return 'DATA';
    case 'preprint':
      return 'UNPB';
    default:
      return doc.venue ? 'JOUR' : 'GEN';
  }
}

/**
 * One value, one line: a line break inside a title would start a line a RIS
 * reader takes as a tag ("ER  - " ends the record). Every character some
 * reader ends a line at (Python's splitlines: VT, FF, FS, GS, RS, NEL, LS, PS
 * besides CR and LF) becomes a space, and runs of white space one space, so a
 * value never holds the "  - " that readers such as citation-js split a line at.
 */
const clean = (text: string) => text.replace(/[\s\x1c-\x1e\x85]+/g, ' ').trim();

export function renderRis(docs: DocumentView[], options: { includeIds?: boolean } = {}): string {
  const out: string[] = [];
  for (const doc of docs) {
    const line = (tag: string, value: string | null | undefined) => {
      if (value !== null && value !== undefined && value !== '') out.push(`${tag}  - ${clean(value)}`);
    };
    line('TY', risType(doc));
    line('TI', doc.title);
    for (const a of doc.authors) line('AU', a.family && a.given ? `${a.family}, ${a.given}` : a.name);
    if (doc.year) line('PY', String(doc.year));
    if (doc.publication_date) {
      const [y, m, d] = doc.publication_date.split('-');
      line('DA', `${y}/${m ?? ''}/${d ?? ''}/`);
    }
    // T2 is the secondary title in every RIS type: the journal of a JOUR, the proceedings of a
    // CPAPER, the book of a CHAP (JO is the journal's abbreviation in the RIS specification).
    line('T2', doc.venue);
    line('DO', doc.doi);
    line('UR', doc.url);
    if (doc.pdf_url) line('L1', doc.pdf_url);
    line('AB', doc.abstract);
    for (const c of doc.categories) line('KW', c);
    if (doc.arxiv_id) line('N1', `arXiv:${doc.arxiv_id}`);
    if (doc.pmid) line('AN', `PMID:${doc.pmid}`);
    if (doc.pmcid) line('N1', `PMCID:${doc.pmcid}`);
    if (doc.is_retracted) line('N1', 'Retracted');
    if (options.includeIds) line('ID', String(doc.id));
    out.push('ER  - ', '');
  }
  return out.join('\r\n');
}

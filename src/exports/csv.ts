/**
 * CSV as RFC 4180 says: a header row, CRLF line ends, fields quoted when they
 * hold a comma, quote or line break. `csvCell` is the one cell writer of every
 * CSV svc writes.
 */
import type { DocumentView } from '../corpus/read.js';

const COLUMNS = ['title', 'authors', 'year', 'publication_date', 'venue', 'doi', 'arxiv_id', 'pmid', 'pmcid', 'url', 'pdf_url', 'type', 'is_retracted', 'abstract'] as const;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or TAB or CR before
 * one) as a formula, and a title from a source can be `=HYPERLINK(…)`. As
 * OWASP's CSV-injection guidance says, such a text cell gets a leading
 * apostrophe, which spreadsheets read as "this is text". A text cell that
 * already starts with an apostrophe gets one too, so the rule reads back
 * exactly: a text cell that starts with ' had one added; drop it.
 */
const FORMULA_START = /^[=+\-@\t\r']/;

/**
 * Quoted also for a semicolon or tab: a spreadsheet set to split on those
 * would otherwise start a new cell there, one this file did not neutralise.
 */
const NEEDS_QUOTES = /[",;\t\r\n]/;

export type CsvValue = string | number | boolean | null;

/** One cell: a number or boolean as written (a numeric -3 stays a number), text neutralised and quoted as above, null empty. */
export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV file: the header and the rows, each line ended by CRLF. */
export function csvText(header: readonly string[], rows: CsvValue[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function renderCsv(docs: DocumentView[], options: { includeIds?: boolean } = {}): string {
  const header = [...(options.includeIds ? ['document_id'] : []), ...COLUMNS];
  const rows = docs.map((doc) => {
    const cells: CsvValue[] = [
      doc.title,
      doc.authors.map((a) => a.name).join('; '),
      doc.year,
      doc.publication_date,
      doc.venue,
      doc.doi,
      doc.arxiv_id,
      doc.pmid,
      doc.pmcid,
      doc.url,
      doc.pdf_url,
      doc.type,
      doc.is_retracted,
      doc.abstract,
    ];
    return [...(options.includeIds ? [doc.id] : []), ...cells];
  });
  return csvText(header, rows);
}

/** CSV as RFC 4180 says: a header row, CRLF line ends, fields quoted when they hold a comma, quote or line break. */
import type { DocumentView } from '../corpus/read.js';

const COLUMNS = ['title', 'authors', 'year', 'publication_date', 'venue', 'doi', 'arxiv_id', 'pmid', 'pmcid', 'url', 'pdf_url', 'type', 'is_retracted', 'abstract'] as const;

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function renderCsv(docs: DocumentView[], options: { includeIds?: boolean } = {}): string {
  const header = [...(options.includeIds ? ['document_id'] : []), ...COLUMNS];
  const rows = docs.map((doc) => {
    const cells: string[] = [
      doc.title,
      doc.authors.map((a) => a.name).join('; '),
      doc.year === null ? '' : String(doc.year),
      doc.publication_date ?? '',
      doc.venue ?? '',
      doc.doi ?? '',
      doc.arxiv_id ?? '',
      doc.pmid ?? '',
      doc.pmcid ?? '',
      doc.url ?? '',
      doc.pdf_url ?? '',
      doc.type ?? '',
      doc.is_retracted ? 'true' : 'false',
      doc.abstract ?? '',
    ];
    return [...(options.includeIds ? [String(doc.id)] : []), ...cells];
  });
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

import { ID, LIMIT } from '../args.js';
import { sourceCatalog } from '../source-catalog.js';
import { invalidArgument } from '../errors.js';
import { defineTool, RELEVANCE_NOTE } from '../tool.js';

const DATE = (which: 'Earliest' | 'Latest') =>
  ({ type: 'string', description: `${which} publication date, YYYY-MM-DD.`, pattern: /^\d{4}-\d{2}-\d{2}$/, patternHint: 'must be a date YYYY-MM-DD' }) as const;

/** A paper as the tools show it: enough to cite and open, never the whole record. */
function paperOf(p: Record<string, any>) {
  // null when the answer carries no author list (the similar route gives none): [] would claim the paper has no authors.
  const authors: string[] | null = Array.isArray(p.authors) ? p.authors.map((a: any) => (typeof a === 'string' ? a : a?.name)).filter(Boolean) : null;
  return {
    id: p.id ?? p.document_id,
    title: p.title,
    authors: authors ? authors.slice(0, 10) : null,
    ...(authors && authors.length > 10 ? { author_count: authors.length } : {}),
    date: p.publication_date ?? p.date ?? null,
    ...(typeof p.year === 'number' ? { year: p.year } : {}),
    source: p.source ?? p.meta_source ?? (Array.isArray(p.sources) ? p.sources[0] : null) ?? null,
    doi: p.doi ?? null,
    url: p.landing_url ?? p.url ?? (p.doi ? `https://doi.org/${p.doi}` : null),
    // A retracted paper must not be cited as sound; the flag travels with the row when the backend gives it.
    ...(typeof p.is_retracted === 'boolean' ? { is_retracted: p.is_retracted } : {}),
    ...(p.distance !== undefined ? { distance: p.distance } : {}),
  };
}

export const searchCorpus = defineTool({
  name: 'search_corpus',
  title: 'Search the corpus',
  description:
    'Search the papers already collected, by keyword (newest first) or semantically (nearest first). Each paper id is a doc_id for explain_match, find_similar and get_paper_lifecycle. Pages by cursor: pass next_cursor back as cursor; has_more false (next_cursor null) is the last page. An offset is refused.',
  args: {
    query: { type: 'string', description: 'What to look for.', required: true, maxLength: 1000 },
    mode: { type: 'string', description: 'keyword (default) or semantic', enum: ['keyword', 'semantic'] },
    sources: { type: 'string[]', description: 'Only papers found by these sources.', maxItems: 30 },
    date_from: DATE('Earliest'),
    date_to: DATE('Latest'),
    limit: LIMIT(100),
    cursor: { type: 'string', description: 'next_cursor of the previous page.', maxLength: 2000 },
    // Declared so that any offset gets the sentence below, not a range error: this tool pages by cursor.
    offset: { type: 'integer', description: 'Not accepted: this tool pages by cursor (pass next_cursor as cursor).', min: 0, max: Number.MAX_SAFE_INTEGER },
  },
  async run(backend, args) {
    if (args.offset !== undefined) throw invalidArgument('search_corpus pages by cursor: pass next_cursor as cursor; an offset is refused.', { argument: 'offset' });
    // The search filters by source without judging the ids: a misspelt one would answer "nothing found".
    if (args.sources?.length) {
      const known = new Set((await sourceCatalog(backend, args.sources as string[])).map((r) => r.id));
      const unknown = (args.sources as string[]).filter((id) => !known.has(id)).map((id) => id.slice(0, 64));
      if (unknown.length) throw invalidArgument(`search_corpus: sources names no source ${unknown.map((id) => `"${id}"`).join(', ')}; list_sources lists them.`, { argument: 'sources', unknown });
    }
    const answer = await backend.send('POST', '/api/explorer/search', {
      query: args.query,
      mode: args.mode,
      sources: args.sources,
      date_from: args.date_from,
      date_to: args.date_to,
      limit: args.limit,
      cursor: args.cursor,
    });
    const papers = ((answer.papers ?? answer.documents ?? answer.results ?? []) as Record<string, any>[]).map(paperOf);
    const semantic = answer.mode === 'semantic';
    const nextCursor = answer.next_cursor ?? null;
    return {
      papers,
      next_cursor: nextCursor,
      // The last page says so: no next_cursor means there is nothing more to ask for.
      has_more: nextCursor !== null,
      mode: answer.mode ?? 'keyword',
      ...(answer.mode_unavailable ? { mode_unavailable: answer.mode_unavailable } : {}),
      ...(semantic ? { ranked_count: answer.ranked_count, unranked_count: answer.unranked_count, model: answer.model } : {}),
      note: RELEVANCE_NOTE,
    };
  },
});

export const findSimilar = defineTool({
  name: 'find_similar',
  title: 'Similar papers',
  description: 'The papers nearest to one paper of the corpus. An empty list always carries the reason.',
  args: { doc_id: ID('document'), limit: LIMIT(100) },
  async run(backend, args) {
    const answer = await backend.get(`/api/documents/${args.doc_id}/similar`, { limit: args.limit });
    const list = (answer.similar ?? answer.documents ?? answer.results ?? []) as Record<string, any>[];
    const papers = list.map((p) => ({ ...paperOf(p), distance: p.distance ?? null, ...(p.score !== undefined ? { score: p.score } : {}) }));
    const reason = answer.reason ?? answer.unavailable ?? (papers.length ? null : 'No paper of the corpus is near this one with the current embeddings.');
    // kind says whether nearness is lexical (shared words) or semantic (a model's embedding): an agent must not
    // describe one as the other. message is the sentence that goes with an empty list's reason.
    return {
      doc_id: args.doc_id,
      model: answer.model ?? null,
      kind: answer.kind ?? null,
      papers,
      ...(papers.length ? {} : { reason, message: answer.message ?? null }),
    };
  },
});

export const explainMatch = defineTool({
  name: 'explain_match',
  title: 'Why is this paper here',
  description: 'What is locally verifiable about why a paper is in the corpus: the runs and routines that found it, which keywords matched in which field, and what cannot be verified.',
  args: { doc_id: ID('document') },
  async run(backend, args) {
    const answer = await backend.get(`/api/documents/${args.doc_id}/why`);
    return { ...answer, note: RELEVANCE_NOTE };
  },
});

export const getPaperLifecycle = defineTool({
  name: 'get_paper_lifecycle',
  title: 'Lifecycle of a paper',
  description: 'Retractions, preprint-to-published and version changes recorded for a paper, each with its notice link.',
  args: { doc_id: ID('document') },
  run: (backend, args) => backend.get(`/api/documents/${args.doc_id}/lifecycle`),
});

export const MAX_EXPORT_DOCS = 500;
/** Document 3, Limits: export text at most 8 MiB per format. */
export const MAX_EXPORT_TEXT_BYTES = 8 * 1024 * 1024;

export const exportReferences = defineTool({
  name: 'export_references',
  title: 'Export references',
  description: `References of one execution or of up to ${MAX_EXPORT_DOCS} papers, as BibTeX, RIS, CSV or JSON text.`,
  args: {
    exec_id: { type: 'integer', description: 'An execution id (list_executions, run_sweep): all its papers.', min: 1, max: Number.MAX_SAFE_INTEGER },
    doc_ids: { type: 'integer[]', description: 'Document ids (paper ids from search_corpus or get_execution_results).', minItems: 1, maxItems: MAX_EXPORT_DOCS },
    format: { type: 'string', description: 'bibtex, ris, csv or json', required: true, enum: ['bibtex', 'ris', 'csv', 'json'] },
  },
  async run(backend, args) {
    if ((args.exec_id === undefined) === (args.doc_ids === undefined)) throw invalidArgument('export_references takes exec_id or doc_ids, exactly one of them.');
    const answer = await backend.call('POST', '/api/export/references', {
      body: args.exec_id !== undefined ? { execution_ids: [args.exec_id], format: args.format } : { document_ids: args.doc_ids, format: args.format },
    });
    // Document 3, Limits: export text at most 8 MiB per format, refused rather than truncated. An execution
    // has no paper count bound and 500 papers with long abstracts can pass it too, so the bytes decide, on both paths.
    const bytes = Buffer.byteLength(answer.text, 'utf8');
    if (bytes > MAX_EXPORT_TEXT_BYTES) {
      const what = args.exec_id !== undefined ? `execution ${args.exec_id}` : `those ${args.doc_ids!.length} papers`;
      throw invalidArgument(
        `The ${args.format} export of ${what} would be ${bytes} bytes, over the ${MAX_EXPORT_TEXT_BYTES}-byte (8 MiB) limit; it is refused, not truncated. Export fewer papers at a time with doc_ids (get_execution_results lists an execution's paper ids).`,
        { limit_bytes: MAX_EXPORT_TEXT_BYTES, size_bytes: bytes },
      );
    }
    return { format: args.format, text: answer.text };
  },
});

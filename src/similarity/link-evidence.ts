/**
 * A link's evidence as a short sentence for people (the CLI, a paper page):
 * which identifiers, how the titles differed, how many authors are shared,
 * how far apart the years are. The evidence object itself is the answer's
 * `evidence` (link-rules.ts writes it).
 */
const TITLES: Record<string, string> = {
  equal: 'titles equal',
  subtitle_dropped: 'a subtitle on one side only',
  near: 'titles nearly equal',
  revised: 'title revised',
};

const CLASSES: Record<string, string> = { abstract: 'a conference abstract', thesis: 'a thesis', paper: 'a paper' };

function identifiers(e: Record<string, any>): string | undefined {
  if (e.stated_by_source) return 'a source names the other version';
  if (typeof e.arxiv_id === 'string') return `arXiv ${e.arxiv_id} on both`;
  const dois: unknown[] = Array.isArray(e.identifiers?.dois) ? e.identifiers.dois : [];
  const given = dois.filter((d): d is string => typeof d === 'string');
  if (dois.length === 2 && given.length === 2) return `DOIs ${given[0]} and ${given[1]}`;
  if (given.length === 1) return `a DOI on one side only (${given[0]})`;
  return undefined;
}

export function evidenceSentence(evidence: Record<string, unknown>): string {
  const e = evidence as Record<string, any>;
  const parts: string[] = [];
  if (Array.isArray(e.classes)) parts.push(`${CLASSES[e.classes[0]] ?? e.classes[0]} and ${CLASSES[e.classes[1]] ?? e.classes[1]}`);
  const ids = identifiers(e);
  if (ids) parts.push(ids);
  if (typeof e.title_difference === 'string') {
    const similar = e.title_difference === 'near' || e.title_difference === 'revised' ? ` (${Number(e.title_similarity).toFixed(2)})` : '';
    parts.push(`${TITLES[e.title_difference] ?? e.title_difference}${similar}`);
  }
  if (typeof e.shared_authors === 'number' && Array.isArray(e.authors_compared)) parts.push(`${e.shared_authors} of ${Math.min(...e.authors_compared)} authors shared`);
  if (typeof e.year_gap === 'number') parts.push(e.year_gap === 0 ? 'same year' : `${e.year_gap} year${e.year_gap === 1 ? '' : 's'} apart`);
  return parts.join('; ');
}

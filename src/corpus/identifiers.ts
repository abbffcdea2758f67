/**
 * A paper's identifiers as people follow them: each scheme svc knows, with its
 * name, the value as stored and the page it opens at the registry or the
 * source that issued it (null where no stable address is known). One list for
 * every door, so the window, the command line and the tools link alike.
 */
import type { Identifier } from '../wire/papers.js';

/** Schemes in the order they are listed, with the address of the page each value opens. */
const SCHEMES: { scheme: string; label: string; url: ((value: string) => string) | null }[] = [
  { scheme: 'doi', label: 'DOI', url: (v) => `https://doi.org/${v}` },
  { scheme: 'arxiv', label: 'arXiv', url: (v) => `https://arxiv.org/abs/${v}` },
  { scheme: 'pmid', label: 'PubMed', url: (v) => `https://pubmed.ncbi.nlm.nih.gov/${v}/` },
  { scheme: 'pmcid', label: 'PubMed Central', url: (v) => `https://pmc.ncbi.nlm.nih.gov/articles/${v}/` },
  { scheme: 'europepmc', label: 'Europe PMC', url: (v) => `https://europepmc.org/article/${v}` },
  { scheme: 'openalex', label: 'OpenAlex', url: (v) => `https://openalex.org/${v}` },
  { scheme: 's2', label: 'Semantic Scholar', url: (v) => `https://www.semanticscholar.org/paper/${v}` },
  { scheme: 's2_corpus', label: 'Semantic Scholar corpus id', url: null },
  { scheme: 'dblp', label: 'dblp', url: (v) => `https://dblp.org/rec/${v}` },
  { scheme: 'biorxiv', label: 'bioRxiv', url: (v) => `https://www.biorxiv.org/content/${v}` },
  { scheme: 'medrxiv', label: 'medRxiv', url: (v) => `https://www.medrxiv.org/content/${v}` },
  { scheme: 'ads', label: 'NASA ADS', url: (v) => `https://ui.adsabs.harvard.edu/abs/${encodeURIComponent(v)}/abstract` },
  { scheme: 'inspire', label: 'INSPIRE', url: (v) => `https://inspirehep.net/literature/${v}` },
  { scheme: 'hal', label: 'HAL', url: (v) => `https://hal.science/${v}` },
  { scheme: 'doaj', label: 'DOAJ', url: (v) => `https://doaj.org/article/${v}` },
  { scheme: 'zenodo', label: 'Zenodo', url: (v) => `https://zenodo.org/records/${v}` },
  { scheme: 'ieee', label: 'IEEE Xplore', url: (v) => `https://ieeexplore.ieee.org/document/${v}` },
  { scheme: 'core', label: 'CORE', url: null },
  { scheme: 'scopus', label: 'Scopus', url: null },
  { scheme: 'springer', label: 'Springer Nature', url: null },
  { scheme: 'plos', label: 'PLOS', url: null },
];

const KNOWN = new Set(SCHEMES.map((s) => s.scheme));

/**
 * The identifiers of a document: its canonical DOI, arXiv id, PMID and PMCID,
 * then the other ids its sources gave (a version is not an identifier; an id
 * that only repeats the DOI, as PLOS and Springer give it, is left out).
 * @example identifiersOf({ doi: '10.1/x', arxiv_id: null, pmid: '1', pmcid: null, ids: { openalex: 'W2' } })
 */
export function identifiersOf(doc: { doi: string | null; arxiv_id: string | null; pmid: string | null; pmcid: string | null; ids: Record<string, string | undefined> }): Identifier[] {
  const values: Record<string, string | null | undefined> = { ...doc.ids, doi: doc.doi, arxiv: doc.arxiv_id ?? doc.ids.arxiv, pmid: doc.pmid ?? doc.ids.pmid, pmcid: doc.pmcid ?? doc.ids.pmcid };
  const sameAsDoi = (v: string) => doc.doi !== null && v.replace(/^doi:/i, '').toLowerCase() === doc.doi.toLowerCase();
  const out: Identifier[] = [];
  for (const { scheme, label, url } of SCHEMES) {
    const value = values[scheme];
    if (!value || (scheme !== 'doi' && sameAsDoi(value))) continue;
    out.push({ scheme, label, value, url: url ? url(value) : null });
  }
  for (const [scheme, value] of Object.entries(doc.ids)) {
    if (!value || KNOWN.has(scheme) || scheme.endsWith('_version') || sameAsDoi(value)) continue;
    out.push({ scheme, label: scheme, value, url: null });
  }
  return out;
}

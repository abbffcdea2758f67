/**
 * Whose metadata describes a work when several sources saw it. Publisher
 * deposits (Crossref) and curated indexes speak for the published record
 * before aggregators and search engines; preprint servers come last (their
 * record describes the preprint). Ties keep what arrived first.
 */
const AUTHORITY: Record<string, number> = {
  crossref: 100,
  pubmed: 90,
  springer: 85,
  ieee: 85,
  plos: 85,
  europepmc: 80,
  scopus: 75,
  openalex: 70,
  dblp: 65,
  inspire: 65,
  ads: 65,
  doaj: 60,
  hal: 55,
  semanticscholar: 50,
  core: 45,
  zenodo: 40,
  arxiv: 20,
  biorxiv: 20,
  medrxiv: 20,
};

export function authorityOf(source: string | null | undefined): number {
  return source ? (AUTHORITY[source] ?? 30) : 0;
}

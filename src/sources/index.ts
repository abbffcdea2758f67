/**
 * Every repository svc knows: the adapters it can ask and the retired services
 * users still ask for. The catalog, executions and the CLI read this list.
 */
import { ads } from './ads.js';
import { arxiv } from './arxiv.js';
import { biorxiv } from './biorxiv.js';
import { europepmc } from './europepmc.js';
import { medrxiv } from './medrxiv.js';
import { pubmed } from './pubmed.js';
import { core } from './core.js';
import { crossref } from './crossref.js';
import { dblp } from './dblp.js';
import { doaj } from './doaj.js';
import { hal } from './hal.js';
import { inspire } from './inspire.js';
import { openalex } from './openalex.js';
import { plos } from './plos.js';
import { semanticscholar } from './semanticscholar.js';
import { zenodo } from './zenodo.js';
import { orcid } from './orcid.js';
import { ieee } from './ieee.js';
import { RETIRED_SOURCES } from './retired.js';
import { scopus } from './scopus.js';
import { springer } from './springer.js';
import type { CatalogEntry, SourceAdapter } from './types.js';

export const ADAPTERS: SourceAdapter[] = [
  arxiv, pubmed, openalex, crossref, europepmc, semanticscholar, dblp, biorxiv, medrxiv, doaj, zenodo, hal, inspire, plos,
  core, ieee, springer, scopus, ads, orcid,
];

export const CATALOG: CatalogEntry[] = [...ADAPTERS, ...RETIRED_SOURCES];

export function findSource(id: string): CatalogEntry | undefined {
  return CATALOG.find((entry) => entry.id === id);
}

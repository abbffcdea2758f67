#!/usr/bin/env node
// Records parsed per second per adapter on its recorded fixtures, with each
// adapter's pure parseResponse (target: at least 5,000 records/s for the JSON
// sources). Run after `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'test', 'fixtures');
const MIN_MS = Number(process.argv[2] ?? 400);

// Adapter → fixtures of full answers (empty and error answers are left out: nothing to parse per record).
const CASES = {
  arxiv: ['arxiv/search-all-testing-start0-max10.xml'],
  pubmed: ['pubmed/efetch-pubmed-11748933-11700088.xml'],
  openalex: ['openalex/works-search-ml-nlp-2020-2022-first5-of-50.json', 'openalex/works-filter-title-search-1-result.json'],
  crossref: ['crossref/works-query-ecology-rows2.json'],
  europepmc: ['europepmc/search-cancer-lite.json'],
  semanticscholar: ['semanticscholar/paper-search-turing-first3-of-100.json'],
  dblp: ['dblp/publ-search-test-h1-f1.json'],
  biorxiv: ['biorxiv/details-biorxiv-2020-01-01-2022-12-31-cursor0.json'],
  medrxiv: ['medrxiv/details-medrxiv-2020-01-01-2022-12-31-cursor0.json'],
  doaj: ['doaj/search-articles-license-CC-BY-pageSize2.json'],
  hal: fs.readdirSync(path.join(fixtures, 'hal')).filter((f) => f.endsWith('.json')).map((f) => `hal/${f}`),
  inspire: ['inspire/literature-search-doi-10.1103_physrevd.99.125011.json'],
  plos: ['plos/search-alcohol-rows5-hl-abstract.json'],
  zenodo: fs.readdirSync(path.join(fixtures, 'zenodo')).filter((f) => f.endsWith('.json')).map((f) => `zenodo/${f}`),
  core: fs.readdirSync(path.join(fixtures, 'core')).filter((f) => f.endsWith('.json')).map((f) => `core/${f}`),
  ieee: ['ieee/search-articles-ml-nlp-2020-2022-max50.json'],
  springer: fs.readdirSync(path.join(fixtures, 'springer')).filter((f) => f.endsWith('.json')).map((f) => `springer/${f}`),
  scopus: ['scopus/search-scopus-title-abs-key-ml-nlp-2020-2022-count25.json'],
  ads: fs.readdirSync(path.join(fixtures, 'ads')).filter((f) => f.endsWith('.json')).map((f) => `ads/${f}`),
};

console.log('adapter           records/s   (records per pass, format)');
for (const [id, files] of Object.entries(CASES)) {
  const { parseResponse } = await import(path.join(root, 'dist', 'src', 'sources', `${id}.js`));
  const texts = files.map((f) => fs.readFileSync(path.join(fixtures, f), 'utf8'));
  let perPass = 0;
  for (const text of texts) {
    try {
      perPass += parseResponse(text).records.length;
    } catch {
      // an answer this parser refuses (e.g. a default-fields HAL answer) adds nothing
    }
  }
  if (perPass === 0) continue;
  let records = 0;
  const start = performance.now();
  while (performance.now() - start < MIN_MS) {
    for (const text of texts) {
      try {
        records += parseResponse(text).records.length;
      } catch {}
    }
  }
  const rate = records / ((performance.now() - start) / 1000);
  const format = files[0].endsWith('.xml') ? 'XML' : 'JSON';
  const flag = format === 'JSON' && rate < 5000 ? '  below target' : '';
  console.log(`${id.padEnd(16)} ${rate.toFixed(0).padStart(10)}   (${perPass}, ${format})${flag}`);
}

/**
 * Scholarly search services that no longer exist but that people still name
 * when they ask for sources. They stay in the catalog so a request for them is
 * answered with the zero reason `retired` (and the date) instead of an unknown
 * source. Each date is the one the operator announced, cited below.
 */
import type { RetiredSource } from './types.js';

export const RETIRED_SOURCES: RetiredSource[] = [
  {
    // Announced 4 May 2021: the website and APIs (Academic Knowledge API, MAG) retired at the end of 2021.
    id: 'microsoft_academic',
    name: 'Microsoft Academic',
    homepage: 'https://www.microsoft.com/en-us/research/project/academic/',
    status: 'retired',
    description: 'Microsoft Academic search and the Microsoft Academic Graph (Academic Knowledge API). OpenAlex carries its data forward.',
    retiredOn: '2021-12-31',
  },
  {
    // The Chan Zuckerberg Initiative announced the sunset on 28 October 2021; support ended 31 March 2022.
    id: 'meta',
    name: 'Meta (Chan Zuckerberg Initiative)',
    homepage: 'https://www.meta.org/',
    status: 'retired',
    description: 'The biomedical literature discovery tool Meta (formerly Sciencescape), run by the Chan Zuckerberg Initiative.',
    retiredOn: '2022-03-31',
  },
  {
    // Elsevier announced in September 2013 that Scirus would close in early 2014; it went dark in January 2014.
    id: 'scirus',
    name: 'Scirus',
    homepage: 'https://www.scirus.com/',
    status: 'retired',
    description: "Elsevier's free science search engine (2001–2014) over journal content, preprints, patents and scientists' pages.",
    retiredOn: '2014-01',
  },
];

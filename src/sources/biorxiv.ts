/** bioRxiv, the preprint server for biology, through the shared details API (rxiv.ts). */
import { parseRxivDetails, rxivAdapter } from './rxiv.js';
import type { ParsedPage } from './types.js';

/** Parse one details answer before local filtering (pure). */
export function parseResponse(text: string): ParsedPage {
  return parseRxivDetails(text, 'biorxiv');
}

export const biorxiv = rxivAdapter({
  server: 'biorxiv',
  name: 'bioRxiv',
  homepage: 'https://www.biorxiv.org/',
  description: 'Preprints in the life sciences, every version, by posting date; keywords are matched locally in title and abstract.',
});

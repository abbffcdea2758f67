/** medRxiv, the preprint server for health sciences, through the shared details API (rxiv.ts). */
import { parseRxivDetails, rxivAdapter } from './rxiv.js';
import type { ParsedPage } from './types.js';

/** Parse one details answer before local filtering (pure). */
export function parseResponse(text: string): ParsedPage {
  return parseRxivDetails(text, 'medrxiv');
}

export const medrxiv = rxivAdapter({
  server: 'medrxiv',
  name: 'medRxiv',
  homepage: 'https://www.medrxiv.org/',
  description: 'Preprints in medicine and health sciences, every version, by posting date; keywords are matched locally in title and abstract.',
});

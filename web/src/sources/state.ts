/**
 * A source's state on the Sources page, in the service's terms: retired (the
 * catalog's status), needs a key (the search offer's reason missing_key),
 * dates required (the catalog's date_window capability), ready (the offer is
 * searchable), or another reason the offer gives. Nothing is decided here that
 * the service did not answer.
 */
import type { Repository, SearchRepository } from '../api/types.js';
import { reasonWords } from '../api/errors.js';

export interface SourceState {
  id: 'ready' | 'needs_key' | 'retired' | 'dates_required' | 'other';
  label: string;
  chip: string;
  /** The service's sentence when the source cannot be asked as it is. */
  message: string | null;
}

export function stateOf(entry: Repository, offer: SearchRepository | undefined): SourceState {
  if (entry.status === 'retired' || offer?.reason === 'retired') return { id: 'retired', label: 'retired', chip: 'chip chip-danger', message: offer?.message ?? null };
  if (offer?.reason === 'missing_key') return { id: 'needs_key', label: 'needs a key', chip: 'chip chip-warn', message: offer.message };
  if (offer && !offer.searchable) return { id: 'other', label: reasonWords(offer.reason ?? 'unavailable'), chip: 'chip chip-warn', message: offer.message };
  if (entry.capabilities?.date_window === 'required') return { id: 'dates_required', label: 'dates required', chip: 'chip', message: 'Ready when a search gives a publication date window.' };
  return { id: 'ready', label: 'ready', chip: 'chip chip-ok', message: null };
}

export const STATE_ORDER: SourceState['id'][] = ['ready', 'dates_required', 'needs_key', 'other', 'retired'];

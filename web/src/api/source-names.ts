/**
 * Sources by their names ("Europe PMC" for europepmc), from the service's
 * static catalog, asked once per page load: the corpus stores source ids.
 */
import { api } from './client.js';
import type { Catalog } from './types.js';

let names: Promise<Map<string, string>> | null = null;

export function sourceNames(): Promise<Map<string, string>> {
  names ??= api.get<Catalog>('/api/repositories/catalog').then(
    (catalog) => new Map(catalog.repositories.map((r) => [r.id, r.name])),
    (err) => {
      names = null; // asked again next time; the ids stand in meanwhile
      throw err;
    },
  );
  return names;
}

import { readCatalog, searchableRepositories } from '../../src/sources/catalog.js';
import { route } from '../registry.js';

export const repositoryRoutes = [
  route('GET', '/api/repositories/catalog', () => readCatalog()),
  route('GET', '/api/search/repositories', (_event, { ctx }) => searchableRepositories(ctx)),
];

import { readCatalog, searchableRepositories } from '../../src/sources/catalog.js';
import { queryOf } from '../body.js';
import { enumQuery } from '../params.js';
import { route } from '../registry.js';

export const repositoryRoutes = [
  route('GET', '/api/repositories/catalog', () => readCatalog()),
  // window=given (a from or a to date) or none: also says which sources cannot answer a run with or without one.
  route('GET', '/api/search/repositories', (event, { ctx }) => {
    const window = enumQuery(queryOf(event), 'window', ['given', 'none'] as const);
    return searchableRepositories(ctx, { windowGiven: window === undefined ? undefined : window === 'given' });
  }),
];

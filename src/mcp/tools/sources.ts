import { LIMIT, OFFSET } from '../args.js';
import { sourceCatalog } from '../source-catalog.js';
import { defineTool, page } from '../tool.js';

export const listSources = defineTool({
  name: 'list_sources',
  title: 'List sources',
  description: 'The repositories svc can search, with what each can do and whether the key it needs is present (never the key).',
  args: { limit: LIMIT(100), offset: OFFSET },
  async run(backend, args) {
    const repositories = await sourceCatalog(backend);
    const credentials = await backend.get('/api/credentials');
    const status = new Map<string, string>();
    for (const c of (credentials.credentials ?? credentials ?? []) as { name?: string; key_name?: string; status?: string }[]) {
      const name = c.name ?? c.key_name;
      if (name && c.status) status.set(name, c.status);
    }
    const sources = repositories.map((r) => {
      const alias = r.credential?.name ?? (r.credential_name as string | undefined) ?? null;
      return { ...r, credential: alias ? { alias, status: status.get(alias) ?? 'absent', required: Boolean(r.credential?.required) } : null };
    });
    const { items, ...rest } = page(sources, args.limit, args.offset);
    return { sources: items, ...rest };
  },
});

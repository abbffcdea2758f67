import { ID, LIMIT, OFFSET } from '../args.js';
import { defineTool, page, pageInfo } from '../tool.js';

export const listWatchProfiles = defineTool({
  name: 'list_watch_profiles',
  title: 'List watch profiles',
  description: 'Followed people and groups; a profile with no identifier keeps its basis_warning.',
  args: { kind: { type: 'string', description: 'person or group', enum: ['person', 'group'] }, limit: LIMIT(100), offset: OFFSET },
  async run(backend, args) {
    const answer = await backend.get('/api/profiles', { kind: args.kind });
    const { items, ...rest } = page(answer.profiles as unknown[], args.limit, args.offset);
    return { profiles: items, ...rest };
  },
});

export const getWatchProfile = defineTool({
  name: 'get_watch_profile',
  title: 'One watch profile',
  description: 'A profile with its match total and the count per basis.',
  args: { profile_id: ID('watch profile') },
  async run(backend, args) {
    const { by_basis: byBasis, match_count: total, ...profile } = await backend.get(`/api/profiles/${args.profile_id}`);
    return { profile, match_total: total, by_basis: byBasis };
  },
});

export const getProfileMatches = defineTool({
  name: 'get_profile_matches',
  title: 'Matches of a watch profile',
  description: 'Matched papers, each with basis, matched_author and evidence; by_basis counts and what each basis means. A name-only match is a string match, not an identity claim.',
  args: { profile_id: ID('watch profile'), limit: LIMIT(200), offset: OFFSET },
  async run(backend, args) {
    const answer = await backend.get(`/api/profiles/${args.profile_id}/matches`, { limit: args.limit, offset: args.offset });
    const total = typeof answer.total === 'number' ? answer.total : (answer.matches ?? []).length;
    return { ...answer, ...pageInfo(total, args.limit, args.offset) };
  },
});

export const createWatchProfile = defineTool({
  name: 'create_watch_profile',
  title: 'Create a watch profile',
  description: 'Follow a person. Without an ORCID iD the profile matches by name only, and the answer says so (basis_warning).',
  args: {
    name: { type: 'string', description: 'The name as papers write it.', required: true, maxLength: 200 },
    orcid: { type: 'string', description: 'ORCID iD, e.g. 0000-0002-1825-0097.', maxLength: 64 },
    orcid_cited: { type: 'boolean', description: 'Also match papers whose source record cites the ORCID iD outside an author record.', default: false },
    aliases: { type: 'string[]', description: 'Other spellings or former names.', maxItems: 20 },
    affiliations: { type: 'string[]', description: 'Affiliations that confirm a name match.', maxItems: 20 },
    field_hints: { type: 'string[]', description: 'Fields noted in the evidence.', maxItems: 20 },
  },
  async run(backend, args) {
    const profile = await backend.send('POST', '/api/profiles', {
      name: args.name,
      orcid: args.orcid,
      orcid_cited: args.orcid_cited,
      aliases: args.aliases,
      affiliations: args.affiliations,
      field_hints: args.field_hints,
    });
    const warning = (profile as { basis_warning?: string }).basis_warning;
    return warning ? { basis_warning: warning, profile, detail: { basis_warning: warning } } : { profile };
  },
});

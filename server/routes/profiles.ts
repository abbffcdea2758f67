import { BASES } from '../../src/profiles/bases.js';
import { matchesForDocuments, MATCHES_DEFAULT_LIMIT, MATCHES_MAX_LIMIT, profileLifecycle, profileMatches } from '../../src/profiles/matches.js';
import { ForDocumentsBody, ImportBody, PROFILE_KINDS } from '../../src/profiles/schema.js';
import { createProfile, deleteProfile, listProfiles, readProfile, updateProfile } from '../../src/profiles/service.js';
import { starterProfiles } from '../../src/profiles/starter.js';
import { exportProfile, importProfiles } from '../../src/profiles/transfer.js';
import { queryOf, readJson, readValid } from '../body.js';
import { enumQuery, idParam, intQuery } from '../params.js';
import { route } from '../registry.js';

const profileId = (p: Record<string, string>) => idParam(p.profile_id, 'profile_id');

export const profileRoutes = [
  route('GET', '/api/profiles', (event, { ctx }) => listProfiles(ctx, enumQuery(queryOf(event), 'kind', PROFILE_KINDS))),
  route('POST', '/api/profiles', async (event, { ctx }) => {
    const created = createProfile(ctx, await readJson(event));
    event.res.status = 201;
    return created;
  }),
  route('GET', '/api/profiles/starter', () => starterProfiles()),
  route('POST', '/api/profiles/import', async (event, { ctx }) => {
    const body = await readValid(event, ImportBody);
    const answer = importProfiles(ctx, body.profiles);
    event.res.status = 201;
    return answer;
  }),
  route('POST', '/api/profiles/matches/for-documents', async (event, { ctx }) => matchesForDocuments(ctx, (await readValid(event, ForDocumentsBody)).document_ids)),
  route('GET', '/api/profiles/{profile_id}', (_event, { ctx }, p) => readProfile(ctx, profileId(p))),
  route('PUT', '/api/profiles/{profile_id}', async (event, { ctx }, p) => {
    const id = profileId(p);
    return updateProfile(ctx, id, await readJson(event));
  }),
  route('DELETE', '/api/profiles/{profile_id}', (_event, { ctx }, p) => deleteProfile(ctx, profileId(p))),
  route('GET', '/api/profiles/{profile_id}/export', (_event, { ctx }, p) => exportProfile(ctx, profileId(p))),
  route('GET', '/api/profiles/{profile_id}/matches', (event, { ctx }, p) => {
    const id = profileId(p);
    const q = queryOf(event);
    return profileMatches(ctx, id, {
      limit: intQuery(q, 'limit', MATCHES_DEFAULT_LIMIT, 1, MATCHES_MAX_LIMIT),
      offset: intQuery(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
      basis: enumQuery(q, 'basis', BASES),
    });
  }),
  route('GET', '/api/profiles/{profile_id}/lifecycle', (_event, { ctx }, p) => profileLifecycle(ctx, profileId(p))),
];

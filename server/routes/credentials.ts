import * as v from 'valibot';
import { MAX_CREDENTIAL_LENGTH } from '../../src/credentials/store.js';
import { providerForCredential } from '../../src/providers/provider-catalog.js';
import type { CredentialList, CredentialWritten } from '../../src/wire/credentials.js';
import { readValid } from '../body.js';
import { route } from '../registry.js';

const StoreBody = v.object({ value: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_CREDENTIAL_LENGTH)) });

export const credentialRoutes = [
  // validate_provider: the provider POST /api/credentials/validate checks this key with (AI keys only), so a door knows which keys it can offer to check.
  route('GET', '/api/credentials', (_event, { ctx }): CredentialList => ({
    credentials: ctx.credentials.statuses().map((c) => ({ ...c, validate_provider: providerForCredential(c.name)?.id ?? null })),
  })),
  route('PUT', '/api/credentials/{key_name}', async (event, { ctx }, params): Promise<CredentialWritten> => {
    ctx.credentials.status(params.key_name!); // unknown name → 404 before reading the value
    // The body holds a secret: validation errors never echo it.
    const body = await readValid(event, StoreBody, { hideInput: true, limit: 64 * 1024 });
    ctx.credentials.set(params.key_name!, body.value);
    return { name: params.key_name!, status: ctx.credentials.status(params.key_name!) };
  }),
  route('DELETE', '/api/credentials/{key_name}', (_event, { ctx }, params): CredentialWritten => {
    ctx.credentials.remove(params.key_name!);
    return { name: params.key_name!, status: ctx.credentials.status(params.key_name!) };
  }),
];

/**
 * Credentials and models (spec 1): validate a key against its provider's
 * cheapest authenticated endpoint (the models list, no tokens spent), and list
 * the model ids a credential can reach. A key given in the request is used
 * once and never stored, echoed or logged; without one, the stored key is used.
 */
import type { Context } from '../context.js';
import { badRequest, invalid } from '../errors.js';
import { AGENT_ALIASES, API_PROVIDERS, CLI_PROVIDERS, findApiProvider, providerForCredential, type ApiProvider } from '../providers/provider-catalog.js';
import { checkKey, listModels } from '../providers/index.js';
import { apiBaseUrl, cliBinary } from './connections.js';
import type { KeyCheck } from '../wire/credentials.js';
import type { ModelList } from '../wire/settings.js';

export interface ValidateInput {
  provider: string;
  key?: string | null;
  base_url?: string | null;
}

export interface ModelsInput extends ValidateInput {
  binary_path?: string | null;
  endpoint?: string | null;
  header_prefix?: string | null;
}

function providerOrThrow(id: string, loc: string[]): ApiProvider {
  const provider = findApiProvider(id);
  if (!provider) throw invalid(loc, `Input should be one of: ${API_PROVIDERS.map((p) => p.id).join(', ')}`, 'enum', id.slice(0, 64), { expected: API_PROVIDERS.map((p) => p.id) });
  return provider;
}

// The bodies that reach these checks carry a key (a URL may too, as ?key=): a refusal never quotes the value.
function baseUrlOf(ctx: Context, provider: ApiProvider, given: string | null | undefined, loc: string[]): string {
  if (given === null || given === undefined || given === '') return apiBaseUrl(ctx, provider);
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw invalid(loc, 'Input should be an http or https URL', 'url_parsing');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(loc, 'Input should be an http or https URL', 'url_scheme');
  if (url.username || url.password) throw invalid(loc, 'The URL must not carry a user name or password', 'url_userinfo');
  return given;
}

function keyOf(ctx: Context, provider: ApiProvider, given: string | null | undefined): string {
  if (given) {
    ctx.log.addSecret(given);
    return given;
  }
  const stored = ctx.credentials.reveal(provider.credential);
  if (!stored) throw badRequest('credential_absent', `No key was given and no ${provider.credential} is stored; store it with \`svc credentials set ${provider.credential}\`.`, { credential: provider.credential });
  return stored;
}

/** POST /api/credentials/validate. */
export async function validateCredential(ctx: Context, input: ValidateInput): Promise<KeyCheck> {
  const provider = providerOrThrow(input.provider, ['body', 'provider']);
  const baseUrl = baseUrlOf(ctx, provider, input.base_url, ['body', 'base_url']);
  const key = keyOf(ctx, provider, input.key);
  const check = await checkKey(provider.family, { baseUrl, key, fetch: ctx.fetch, signal: AbortSignal.timeout(15_000) }, provider.label);
  const base = { provider: provider.id, credential: provider.credential, key_source: input.key ? 'request' : 'stored', checked_at_utc: ctx.nowIso(), endpoint: 'models' } as const;
  if (check.valid) return { ...base, valid: true, status: 'valid', message: `${provider.label} accepted the key.`, models: check.models };
  const status = check.kind === 'unauthorized' ? 'invalid' : check.kind === 'unreachable' ? 'unreachable' : 'error';
  return { ...base, valid: false, status, message: check.message };
}

/** POST /api/ai/models. */
export async function listModelIds(ctx: Context, input: ModelsInput): Promise<ModelList> {
  const cli = CLI_PROVIDERS.find((c) => c.id === input.provider);
  if (cli) {
    // An agent CLI has no models endpoint: its aliases are what it accepts.
    const found = input.binary_path ? input.binary_path : cliBinary(ctx, cli);
    return { provider: cli.id, models: cli.implemented ? [...AGENT_ALIASES] : [], source: 'agent_aliases', cli_found: Boolean(found) };
  }
  const provider = providerOrThrow(input.provider, ['body', 'provider']);
  const baseUrl = baseUrlOf(ctx, provider, input.base_url, ['body', 'base_url']);
  if (input.endpoint && !/^\/?[A-Za-z0-9._~\-/]+(\?[A-Za-z0-9._~\-=&]*)?$/.test(input.endpoint)) {
    throw invalid(['body', 'endpoint'], 'Input should be a path such as /models', 'path_invalid');
  }
  if (input.header_prefix && !/^[A-Za-z][A-Za-z0-9-]{0,31}$/.test(input.header_prefix)) {
    throw invalid(['body', 'header_prefix'], 'Input should be a single word such as Bearer', 'word_invalid');
  }
  const key = keyOf(ctx, provider, input.key);
  const models = await listModels(
    provider.family,
    { baseUrl, key, endpoint: input.endpoint || undefined, headerPrefix: input.header_prefix || undefined, fetch: ctx.fetch, signal: AbortSignal.timeout(15_000) },
    provider.label,
  );
  return { provider: provider.id, models: [...new Set(models)].sort(), source: 'provider_api' };
}

/** `svc credentials validate NAME`: the stored value of an AI credential, checked with its provider. */
export async function validateStoredCredential(ctx: Context, name: string, baseUrl?: string): Promise<KeyCheck> {
  ctx.credentials.status(name); // unknown name: 404
  const provider = providerForCredential(name);
  if (!provider) throw badRequest('not_validatable', `${name} is not an AI provider key; only AI keys can be validated here.`);
  return validateCredential(ctx, { provider: provider.id, key: null, base_url: baseUrl ?? null });
}

/**
 * Every credential name svc knows. Values live only in the owner-only
 * credentials file; everything else sees a name and a status.
 */
import type { CredentialState } from '../wire/credentials.js';

export type CredentialName = Omit<CredentialState, 'status'>;

export const CREDENTIAL_NAMES: readonly CredentialName[] = [
  { name: 'openalex_api_key', kind: 'repository', label: 'OpenAlex API key' },
  { name: 'semanticscholar_api_key', kind: 'repository', label: 'Semantic Scholar API key' },
  { name: 'ncbi_api_key', kind: 'repository', label: 'NCBI E-utilities API key (PubMed)' },
  { name: 'core_api_key', kind: 'repository', label: 'CORE API key' },
  { name: 'ieee_api_key', kind: 'repository', label: 'IEEE Xplore API key' },
  { name: 'springer_api_key', kind: 'repository', label: 'Springer Nature API key' },
  { name: 'scopus_api_key', kind: 'repository', label: 'Elsevier (Scopus) API key' },
  { name: 'ads_api_key', kind: 'repository', label: 'NASA ADS API token' },
  { name: 'openai_api_key', kind: 'ai', label: 'OpenAI API key' },
  { name: 'anthropic_api_key', kind: 'ai', label: 'Anthropic API key' },
  { name: 'gemini_api_key', kind: 'ai', label: 'Google Gemini API key' },
  { name: 'mistral_api_key', kind: 'ai', label: 'Mistral API key' },
  { name: 'groq_api_key', kind: 'ai', label: 'Groq API key' },
  { name: 'openrouter_api_key', kind: 'ai', label: 'OpenRouter API key' },
  { name: 'deepseek_api_key', kind: 'ai', label: 'DeepSeek API key' },
  { name: 'xai_api_key', kind: 'ai', label: 'xAI API key' },
  { name: 'smtp_password', kind: 'email', label: 'Mail server password' },
  { name: 'cloud_password', kind: 'cloud', label: 'WebDAV password' },
];

export function findCredentialName(name: string): CredentialName | undefined {
  return CREDENTIAL_NAMES.find((c) => c.name === name);
}

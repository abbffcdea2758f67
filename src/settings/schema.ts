/**
 * Every setting svc knows, declared once with its type and default. Reads merge
 * stored values over these defaults; writes are checked against them. Secrets
 * are never settings: they live in the credentials store.
 */
import { API_PROVIDERS, CLI_PROVIDERS } from '../providers/provider-catalog.js';

export type SettingDef =
  | {
      type: 'string';
      default: string;
      maxLength?: number;
      oneOf?: readonly string[];
      email?: true;
      url?: true;
      /**
       * An endpoint whose empty value means the provider's own: a stored value that fails a newer
       * check is read as stored (its use then fails and says so), never as empty, which would send
       * the requests, and the key, to another destination.
       */
      endpoint?: true;
      host?: true;
      absolutePath?: true;
      relativeFolder?: true;
      doc: string;
    }
  | { type: 'nullable-string'; default: string | null; maxLength?: number; oneOf?: readonly string[]; model?: true; doc: string }
  | { type: 'boolean'; default: boolean; doc: string }
  | { type: 'integer'; default: number; min: number; max: number; doc: string };

export const SETTINGS_GROUPS = ['ai', 'email', 'embeddings', 'cloud', 'storage', 'notifications', 'assistant', 'execution'] as const;
export type SettingsGroup = (typeof SETTINGS_GROUPS)[number];

/** Groups written through the generic `{settings}` body; execution has its own strict route. */
export const GENERIC_GROUPS = ['ai', 'email', 'notifications', 'cloud', 'storage', 'assistant'] as const;

/**
 * What ai.provider may name: none (AI off), an offered API provider, or a CLI lane svc can run. The two
 * CLI adapters listed as unavailable are left out: stored, they would only fail at the first summary.
 */
const AI_PROVIDERS = ['none', ...API_PROVIDERS.map((p) => p.id), ...CLI_PROVIDERS.filter((p) => p.implemented).map((p) => p.id)];

export const SETTINGS: Record<SettingsGroup, Record<string, SettingDef>> = {
  ai: {
    provider: { type: 'string', default: 'none', oneOf: AI_PROVIDERS, doc: 'Model provider for AI summaries and answers: an API provider, agent_code for the Claude Code CLI, or none to turn AI off.' },
    model: { type: 'string', default: '', maxLength: 512, doc: 'Model id at that provider.' },
    base_url: { type: 'string', default: '', maxLength: 2048, url: true, endpoint: true, doc: 'Custom endpoint for OpenAI-compatible or local servers; empty for the provider default.' },
    summaries_enabled: { type: 'boolean', default: false, doc: 'Write an AI summary into reports when a run asks for AI.' },
    max_output_tokens: { type: 'integer', default: 1024, min: 64, max: 65536, doc: 'Upper bound of tokens a model may write per request.' },
  },
  email: {
    smtp_host: { type: 'string', default: '', maxLength: 255, host: true, doc: 'Mail server host name or IP address (no scheme, port or user name).' },
    smtp_port: { type: 'integer', default: 587, min: 1, max: 65535, doc: 'Mail server port.' },
    smtp_secure: { type: 'boolean', default: false, doc: 'Use TLS from the first byte (port 465); otherwise STARTTLS when offered.' },
    smtp_username: { type: 'string', default: '', maxLength: 255, doc: 'Login name; the password is the smtp_password credential.' },
    from_address: { type: 'string', default: '', maxLength: 320, email: true, doc: 'Sender address of reports.' },
    to_address: { type: 'string', default: '', maxLength: 320, email: true, doc: 'Default recipient when an email destination names none.' },
    contact_email: { type: 'string', default: '', maxLength: 320, email: true, doc: 'Contact address sent to APIs that ask for one (Crossref and OpenAlex polite pools, NCBI).' },
  },
  embeddings: {
    provider: { type: 'string', default: 'local', oneOf: ['none', 'local', 'openai', 'ollama'], doc: 'Embedding lane: local (lexical, offline), openai (or any OpenAI-compatible server), ollama, or none (similarity off). A provider that cannot embed is refused.' },
    model: { type: 'string', default: '', maxLength: 512, doc: 'Embedding model id at that provider; empty for the lane default.' },
    base_url: { type: 'string', default: '', maxLength: 2048, url: true, endpoint: true, doc: 'Endpoint of an OpenAI-compatible or Ollama server; empty for the provider default.' },
    batch_size: { type: 'integer', default: 32, min: 1, max: 1024, doc: 'Documents embedded per request.' },
    embed_after_runs: { type: 'boolean', default: true, doc: 'Embed the new documents of a run when it settles (bounded; never fails the run).' },
  },
  cloud: {
    provider: { type: 'string', default: 'none', oneOf: ['none', 'webdav'], doc: 'Cloud backup target kind.' },
    url: { type: 'string', default: '', maxLength: 2048, url: true, doc: 'WebDAV base URL; the password is the cloud_password credential.' },
    username: { type: 'string', default: '', maxLength: 255, doc: 'WebDAV user name.' },
    remote_folder: { type: 'string', default: 'svc', maxLength: 255, relativeFolder: true, doc: 'Folder under the WebDAV root that receives backups.' },
  },
  storage: {
    reports_dir: { type: 'string', default: '', maxLength: 4096, absolutePath: true, doc: 'Absolute path of the folder report files are written to; empty means <data dir>/reports.' },
    keep_execution_logs_days: { type: 'integer', default: 0, min: 0, max: 36500, doc: 'Delete execution logs older than this many days; 0 keeps them forever.' },
    default_reference_format: { type: 'string', default: 'bibtex', oneOf: ['bibtex', 'ris', 'csv', 'json'], doc: 'Reference format exports use when none is named.' },
  },
  notifications: {
    desktop_enabled: { type: 'boolean', default: true, doc: 'Show desktop notifications from the window.' },
    on_complete: { type: 'boolean', default: false, doc: 'Notify when a run completes.' },
    on_failure: { type: 'boolean', default: true, doc: 'Notify when a run fails or a routine misses a fire.' },
  },
  assistant: {
    assistant_runtime: { type: 'string', default: 'agent_cli', oneOf: ['agent_cli', 'api_key'], doc: 'How the assistant runs: a local agent CLI or a provider API key.' },
    assistant_model: { type: 'nullable-string', default: null, maxLength: 512, model: true, doc: 'Default model for new conversations; null lets the runtime choose.' },
    assistant_effort: { type: 'nullable-string', default: null, oneOf: ['low', 'medium', 'high', 'xhigh', 'max'], doc: 'Default effort for the CLI runtime; null for none.' },
  },
  execution: {
    max_concurrent_executions: { type: 'integer', default: 3, min: 1, max: 32, doc: 'Manual runs that may go at once; one more is refused with 429.' },
    routine_fire_queue_limit: { type: 'integer', default: 20, min: 0, max: 1000, doc: 'Routine fires that may wait for a free slot; overflow is recorded as skipped.' },
  },
};

/**
 * The definition of `group`'s setting `key`, or undefined: an own key only, so that "constructor" or
 * "toString" (keys every object inherits) are no settings rather than stored and read back as ones.
 */
export function settingDef(group: SettingsGroup, key: string): SettingDef | undefined {
  return Object.hasOwn(SETTINGS[group], key) ? SETTINGS[group][key] : undefined;
}

export function isSettingsGroup(name: string): name is SettingsGroup {
  return (SETTINGS_GROUPS as readonly string[]).includes(name);
}

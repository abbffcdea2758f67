/**
 * The MCP door's one error shape, {error, message, detail}, and the mapping
 * from the backend's HTTP answers to its codes (document 3, Errors). Messages
 * never carry a credential value: they are the backend's own sentences, which
 * never do, or ours.
 */
export const MCP_ERROR_CODES = [
  'backend_unavailable',
  'not_found',
  'invalid_argument',
  'conflict',
  'upstream_error',
  'internal_error',
  'identity_unavailable',
  'instance_mismatch',
] as const;
export type McpErrorCode = (typeof MCP_ERROR_CODES)[number];

export class McpToolError extends Error {
  constructor(
    readonly code: McpErrorCode,
    message: string,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'McpToolError';
  }

  toJSON() {
    return { error: this.code, message: this.message, detail: this.detail };
  }
}

export const invalidArgument = (message: string, detail: Record<string, unknown> = {}) => new McpToolError('invalid_argument', message, detail);

/**
 * The backend's sentences end with how a person finds the right id ("GET
 * /api/routines (or `svc routine list`) lists them"); an agent has neither, so
 * that clause names the tool that lists them instead.
 */
const LISTED_BY: [RegExp, string][] = [
  [/\/api\/routines\b|svc routine list/, 'list_routines'],
  [/\/api\/profiles\b|svc profile list/, 'list_watch_profiles'],
  [/\/api\/repositories\/catalog|svc sources/, 'list_sources'],
  [/\/api\/watchdog|svc watchdog/, 'get_watchdog_findings'],
];
const HUMAN_LISTING = /;\s*(?:GET \/api\/\S+(?: \(or `[^`]+`\))?|`svc [^`]+`) lists them(\.?)/;

export function forAgents(message: string): string {
  const m = HUMAN_LISTING.exec(message);
  if (!m) return message;
  const tool = LISTED_BY.find(([re]) => re.test(m[0]))?.[1];
  return message.replace(HUMAN_LISTING, tool ? `; ${tool} lists them$1` : '$1');
}

/**
 * A 422 issue as an argument sentence: the HTTP location (body, query) is not
 * something the agent sent, and a field the tool fills from an argument of
 * another name is called by that argument's name (`fields`, longest first).
 */
export function issueLine(d: { loc?: unknown[]; msg?: string }, fields: Record<string, string> = {}): string {
  let loc = (d.loc ?? []).slice(['body', 'query', 'path'].includes(String((d.loc ?? [])[0])) ? 1 : 0).join('.');
  const from = Object.keys(fields)
    .sort((a, b) => b.length - a.length)
    .find((f) => loc === f || loc.startsWith(`${f}.`));
  if (from) loc = fields[from] + loc.slice(from.length);
  return `${loc ? `${loc}: ` : ''}${forAgents(d.msg ?? '')}`;
}

/** The same refusal with its issues named as the tool's arguments. */
export function renamedFields(err: McpToolError, fields: Record<string, string> | undefined): McpToolError {
  const issues = err.detail.issues;
  if (!fields || !Array.isArray(issues)) return err;
  return new McpToolError(err.code, issues.map((d) => issueLine(d, fields)).join('; '), err.detail);
}

/**
 * Where the backend says only "No execution 999." (a person has the CLI's own
 * hint for that), an agent is told which tool lists the right ids.
 */
const FOUND_BY: Record<string, string> = {
  execution_not_found: 'list_executions lists them',
  document_not_found: 'search_corpus finds paper ids',
  routine_not_found: 'list_routines lists them',
  profile_not_found: 'list_watch_profiles lists them',
};

function withFinder(message: string, reason: string): string {
  const finder = FOUND_BY[reason];
  if (!finder || / lists them| finds /.test(message)) return message;
  return `${message.replace(/\.$/, '')}; ${finder}.`;
}

/** An HTTP refusal from the backend, as the spec maps it. */
export function fromHttp(status: number, body: unknown): McpToolError {
  const detail = (body as { detail?: unknown } | null)?.detail;
  const reason = typeof detail === 'object' && detail !== null && !Array.isArray(detail) ? String((detail as { reason?: unknown }).reason ?? '') : '';
  const message =
    typeof detail === 'string'
      ? forAgents(detail)
      : typeof detail === 'object' && detail !== null && !Array.isArray(detail) && typeof (detail as { message?: unknown }).message === 'string'
        ? forAgents(String((detail as { message: string }).message))
        : Array.isArray(detail)
          ? detail.map((d) => issueLine(d)).join('; ')
          : `The backend answered HTTP ${status}.`;
  const extra = { status, ...(reason ? { reason } : {}), ...(Array.isArray(detail) ? { issues: detail } : {}) };
  if (status === 404) return new McpToolError('not_found', withFinder(message, reason), extra);
  if (status === 422 || status === 400 || status === 413) return new McpToolError('invalid_argument', message, extra);
  if (status === 409 && reason === 'instance_mismatch') return new McpToolError('instance_mismatch', message, extra);
  if (status === 409 || status === 429) return new McpToolError('conflict', message, extra);
  if (status === 502 || status === 503 || status === 504) return new McpToolError('upstream_error', message, extra);
  return new McpToolError('internal_error', message, extra);
}

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

/** An HTTP refusal from the backend, as the spec maps it. */
export function fromHttp(status: number, body: unknown): McpToolError {
  const detail = (body as { detail?: unknown } | null)?.detail;
  const reason = typeof detail === 'object' && detail !== null && !Array.isArray(detail) ? String((detail as { reason?: unknown }).reason ?? '') : '';
  const message =
    typeof detail === 'string'
      ? detail
      : typeof detail === 'object' && detail !== null && !Array.isArray(detail) && typeof (detail as { message?: unknown }).message === 'string'
        ? String((detail as { message: string }).message)
        : Array.isArray(detail)
          ? detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`).join('; ')
          : `The backend answered HTTP ${status}.`;
  const extra = { status, ...(reason ? { reason } : {}), ...(Array.isArray(detail) ? { issues: detail } : {}) };
  if (status === 404) return new McpToolError('not_found', message, extra);
  if (status === 422 || status === 400 || status === 413) return new McpToolError('invalid_argument', message, extra);
  if (status === 409 && reason === 'instance_mismatch') return new McpToolError('instance_mismatch', message, extra);
  if (status === 409 || status === 429) return new McpToolError('conflict', message, extra);
  if (status === 502 || status === 503 || status === 504) return new McpToolError('upstream_error', message, extra);
  return new McpToolError('internal_error', message, extra);
}

/**
 * Exit codes, from one table (documented in man/svc.1 under EXIT STATUS).
 * Errors map to them by HTTP-like status, never by parsing messages.
 */
import { SvcError } from '../../src/errors.js';

export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  noServer: 5,
  refused: 6,
  busy: 7,
  interrupted: 130,
} as const;

export function exitCodeFor(err: unknown): number {
  if (!(err instanceof SvcError)) return EXIT.failed;
  // No server where one is needed: the operation ran and failed (a health check that finds none).
  if (err.reason === 'server_not_running') return EXIT.failed;
  if (err.reason === 'cancelled') return EXIT.interrupted;
  // A bundle that fails its check is a refused check (like \`library check\` finding problems), not a usage error;
  // over HTTP it stays 422 bundle_invalid.
  if (err.reason === 'bundle_invalid') return EXIT.conflict;
  // A Library vault folder that is gone or replaced is the file system failing (exit 1, as svc library status
  // says it); over HTTP it stays 409.
  if (err.reason === 'vault_unavailable' || err.reason === 'vault_marker_invalid') return EXIT.failed;
  switch (err.status) {
    case 400:
    case 413:
    case 415:
    case 422:
      return EXIT.usage;
    case 401:
    case 403:
      return EXIT.refused;
    case 404:
      return EXIT.notFound;
    case 409:
      return EXIT.conflict;
    case 429:
      return EXIT.busy;
    default:
      return EXIT.failed;
  }
}

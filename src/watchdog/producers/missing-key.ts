/** A key missing for a source an active routine uses: the source will answer missing_key. */
import type { Context } from '../../context.js';
import { listRoutines } from '../../routines/repo.js';
import { findSource } from '../../sources/index.js';
import { lastRunReasons } from '../repo.js';
import type { Producer, ProducerResult } from '../types.js';

function repositoriesOf(parametersJson: string): string[] {
  try {
    const p = JSON.parse(parametersJson) as { repositories?: unknown };
    return Array.isArray(p.repositories) ? p.repositories.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

export const missingKey: Producer = {
  check: 'missing_key',
  describes: 'Each active routine\'s sources: broken when a source needs a credential that is absent or unreadable, or answered missing_key in the routine\'s last run.',
  run(ctx: Context): ProducerResult {
    const result: ProducerResult = { findings: [], unjudged: [] };
    for (const routine of listRoutines(ctx.db, true)) {
      const lastReasons = new Map(lastRunReasons(ctx.db, routine.id).map((r) => [r.source, r]));
      for (const id of repositoriesOf(routine.parameters_json)) {
        const entry = findSource(id);
        if (!entry || entry.status !== 'active') continue;
        const credential = entry.capabilities.credential;
        const status = credential ? ctx.credentials.status(credential.name) : null;
        const last = lastReasons.get(id);
        const storeSays = credential?.required && status !== 'present';
        const runSays = last?.zero_reason === 'missing_key';
        if (!storeSays && !runSays) continue;
        const name = credential?.name ?? 'an API key';
        result.findings.push({
          key: `missing_key:${routine.id}:${id}`,
          check: 'missing_key',
          label: 'broken',
          subject: { kind: 'routine', id: routine.id, name: routine.name },
          title: `Routine "${routine.name}" uses ${entry.name}, which ${storeSays ? `needs the ${name} credential (${status})` : 'answered missing_key in the last run'}`,
          // The store keeps no date of a key's absence: only a run that answered missing_key dates it.
          since_utc: runSays ? last!.started_at_utc : null,
          what_to_do:
            status === 'unreadable'
              ? 'The credentials file cannot be read: check its owner and mode (0600), then store the key again with `svc credentials set ' + name + '`.'
              : `Store the key with \`svc credentials set ${name}\` (or PUT /api/credentials/${name}), or take ${entry.name} out of the routine.`,
          evidence: { source: id, credential: credential?.name ?? null, credential_status: status, last_run: last ? { execution_id: last.execution_id, started_at_utc: last.started_at_utc, zero_reason: last.zero_reason } : null },
          thresholds: { required_credential_absent: true, last_run_zero_reason: 'missing_key' },
        });
      }
    }
    return result;
  },
};

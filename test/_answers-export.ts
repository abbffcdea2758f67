/** Hand-built saved answers for the export tests (no model, no database). */
import { sha256Hex } from '../src/answers/canonical-json.js';
import type { ExportSnapshot } from '../src/answers/export-snapshot.js';

export const EVIL = '<script>document.title="pwned"</script><img src="http://127.0.0.1:9/x.png" onerror="alert(1)"> ```fence``` **bold** https://example.org/x';
export const S1 = `Alpha 😀 beta. The sample was heated to 300 K. ${EVIL}`;

export function succeeded(over: Partial<ExportSnapshot> = {}): ExportSnapshot {
  const start = [...S1.slice(0, S1.indexOf('heated'))].length;
  return {
    answer_id: '11111111-2222-4333-8444-555555555555',
    vault_id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    project_id: '99999999-8888-4777-8666-555555555555',
    state: 'succeeded',
    mode: 'answer',
    request_sha256: sha256Hex('request'),
    instruction: `What temperature? ${EVIL}`,
    created_at_utc: '2025-01-02T03:04:05Z',
    finished_at_utc: '2025-01-02T03:05:00Z',
    sources: [
      { source_id: 'S01', file_id: 'f1111111-2222-4333-8444-555555555555', version_id: 'v1111111-2222-4333-8444-555555555555'.replace('v', 'a'), filename: `a "name" ${EVIL}.txt`, selection: 'text page 1', text: S1, source_sha256: sha256Hex(S1) },
    ],
    notes: [{ note_id: 7, file_id: 'f1111111-2222-4333-8444-555555555555', version_id: 'a1111111-2222-4333-8444-555555555555', body: `note ${EVIL}` }],
    result: {
      version: 1,
      request_sha256: sha256Hex('request'),
      mode: 'answer',
      status: 'answer',
      sections: [
        { kind: 'summary', title: `T ${EVIL}`, items: [
          { kind: 'source_statement', text: `Heated. ${EVIL}`, citations: [{ source_id: 'S01', quote: 'heated to 300 K', start, end: start + 15 }] },
          { kind: 'interpretation', text: 'Evil quoted', citations: [{ source_id: 'S01', quote: EVIL, start: [...S1].length - [...EVIL].length, end: [...S1].length }] },
        ] },
        { kind: 'details', items: [{ kind: 'note_summary', text: 'my note', note_ids: [7] }] },
      ],
      limitations: [`Only one source. ${EVIL}`],
    },
    unvalidated_output: null,
    reports: { usage: { input_tokens: 10, output_tokens: 20, provenance: 'reported' } },
    ...over,
  };
}

export function failed(): ExportSnapshot {
  return succeeded({ state: 'failed', result: null, unvalidated_output: `{"version":1, ${EVIL}` });
}

/** Hand-built saved answers (AnswerView) for the export tests: no model, no database. */
import { canonicalJson, sha256Hex } from '../src/answers/canonical-json.js';
import type { AnswerView, RequestPayload, RequestSource } from '../src/answers/types.js';

export const EVIL = '<script>document.title="pwned"</script><img src="http://127.0.0.1:9/x.png" onerror="alert(1)"> ```fence``` **bold** https://example.org/x';
export const S1 = `Alpha 😀 beta. The sample was heated to 300 K. ${EVIL}`;
const FILE = 'f1111111-2222-4333-8444-555555555555';
const VERSION = 'a1111111-2222-4333-8444-555555555555';

export function request(over: Partial<RequestPayload> = {}): RequestPayload {
  const source: Omit<RequestSource, 'source_id' | 'source_sha256'> = {
    file_id: FILE, version_id: VERSION, file_sha256: sha256Hex('bytes'), filename: `a "name" ${EVIL}.txt`, media_type: 'text/plain',
    page_basis: 'logical', page: 1, page_count: 1, extraction_contract: 'library-text-lf/v1', page_sha256: sha256Hex(S1),
    segment: 'page', start_codepoint: 0, end_codepoint: [...S1].length, text: S1,
  };
  return {
    version: 1, kind: 'svc-selected-answer-request', mode: 'answer',
    vault_id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', project_id: '99999999-8888-4777-8666-555555555555', project_revision: 3,
    instruction: `What temperature? ${EVIL}`,
    choices: { version: 1, runtime: 'api_key', provider: 'openai', model: null, effort: null },
    sources: [{ source_id: 'S01', source_sha256: sha256Hex(canonicalJson(source)), ...source }],
    notes: [{ note_id: 7, file_id: FILE, version_id: VERSION, note_revision: 1, text: `note ${EVIL}` }],
    limitations: ['Only the selected text was sent.'],
    ...over,
  };
}

export function succeeded(over: Partial<AnswerView> = {}, reqOver: Partial<RequestPayload> = {}): AnswerView {
  const req = request(reqOver);
  const sha = sha256Hex(canonicalJson(req));
  const start = [...S1.slice(0, S1.indexOf('heated'))].length;
  const evilStart = [...S1].length - [...EVIL].length;
  return {
    contract_version: 1,
    answer_id: '11111111-2222-4333-8444-555555555555',
    vault_id: req.vault_id,
    project_id: req.project_id,
    runtime_id: '22222222-3333-4444-8555-666666666666',
    preview_id: '33333333-4444-4555-8666-777777777777',
    request_sha256: sha,
    state: 'succeeded',
    request: req,
    partial_text: '{"version":1}',
    output: { validated: true, result: {
      version: 1, request_sha256: sha, mode: 'answer', status: 'answer',
      sections: [
        { kind: 'summary', title: `T ${EVIL}`, items: [
          { kind: 'source_statement', text: `Heated. ${EVIL}`, citations: [{ source_id: 'S01', quote: 'heated to 300 K', start, end: start + 15 }] },
          { kind: 'interpretation', text: 'Evil quoted', citations: [{ source_id: 'S01', quote: EVIL, start: evilStart, end: [...S1].length }] },
        ] },
        { kind: 'details', items: [{ kind: 'note_summary', text: 'my note', note_ids: [7] }] },
      ],
      limitations: [`Only one source. ${EVIL}`],
    } },
    usage: { input_tokens: 10, output_tokens: 20, provenance: 'reported', source: 'api_response_usage', billing: 'unknown' },
    reported_model: null,
    error: null,
    completion: 'completed',
    cleanup: 'confirmed',
    created_at_utc: '2025-01-02T03:04:05Z',
    started_at_utc: '2025-01-02T03:04:06Z',
    finished_at_utc: '2025-01-02T03:05:00Z',
    updated_at_utc: '2025-01-02T03:05:00Z',
    ...over,
  };
}

export function failed(text = `{"version":1, ${EVIL}`): AnswerView {
  return succeeded({ state: 'failed', output: { validated: false, text, reason: 'not_json', detail: 'The output is not one JSON value' }, error: { reason: 'output_invalid', message: `bad ${EVIL}` } });
}

/**
 * The two texts a model receives: the fixed system asset (the output rules)
 * and the user prompt, canonicalJson({ payload, request_sha256 }). Hashes are
 * over exactly the bytes sent.
 */
import { canonicalJson, sha256Hex } from './canonical-json.js';
import type { RequestPayload, RequestSource } from './types.js';

export const SYSTEM_PROMPT = `You answer from selected evidence only. The user message is one JSON object {payload, request_sha256}.
payload.sources are exact excerpts (source_id S01..S24) of documents a person selected; payload.notes are their saved notes; payload.instruction is their question or task; payload.mode is "answer" or "briefing".
Use nothing but the selected sources and notes. Do not use tools. Do not ask follow-up questions.
Reply with exactly one JSON object and nothing else (no Markdown fence, no prose before or after):
{"version":1,"request_sha256":<the given request_sha256>,"mode":<payload.mode>,"status":"answer" or "insufficient_evidence","sections":[...],"limitations":[strings]}
Each section: {"kind": "summary"|"details"|"limitations"|"questions", "title"?: string, "items": [...]}; at most 6 sections and 36 items in all.
Each item is one of:
{"kind":"source_statement","text":string,"citations":[{"source_id":"S01","quote":string}]} - what a source states;
{"kind":"interpretation","text":string,"citations":[...]} - your reading of cited sources;
{"kind":"note_summary","text":string,"note_ids":[selected note ids]} - what the person's notes say (no citations);
{"kind":"question","text":string} - an open question.
A quote is 1 to 1000 characters copied exactly, character for character, from the text of the cited source; at most 72 citations.
When the sources do not support an answer, use status "insufficient_evidence" and say why in limitations.`;

export const SYSTEM_SHA256 = sha256Hex(SYSTEM_PROMPT);
export const SYSTEM_BYTES = Buffer.byteLength(SYSTEM_PROMPT, 'utf8');

/** SHA-256 of a source without its own id and digest. */
export function sourceSha256(source: Omit<RequestSource, 'source_id' | 'source_sha256'> & Partial<Pick<RequestSource, 'source_id' | 'source_sha256'>>): string {
  const { source_id: _id, source_sha256: _sha, ...rest } = source;
  return sha256Hex(canonicalJson(rest));
}

export function requestSha256(payload: RequestPayload): string {
  return sha256Hex(canonicalJson(payload));
}

export function userPrompt(payload: RequestPayload, requestSha: string): string {
  return canonicalJson({ payload, request_sha256: requestSha });
}

export interface PromptFacts {
  request_sha256: string;
  user: string;
  user_bytes: number;
  user_sha256: string;
}

export function promptFacts(payload: RequestPayload): PromptFacts {
  const request_sha256 = requestSha256(payload);
  const user = userPrompt(payload, request_sha256);
  return { request_sha256, user, user_bytes: Buffer.byteLength(user, 'utf8'), user_sha256: sha256Hex(user) };
}

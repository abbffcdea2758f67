/**
 * The selected-answer ZIP (spec 2, Exports): exactly answer.json, answer.md and
 * evidence.json, in that order, from one snapshot. Bytes are deterministic for
 * an identical snapshot: members are stored (no compression, so no dependence
 * on the zlib build), with one fixed DOS timestamp and no extended time field.
 * It is not a full-paper archive or a restore format.
 */
import { CITATION_NOTICE, citationPlace, exportLimit, selectionLabel, unvalidatedText, validatedResult } from './export-snapshot.js';
import type { OutputItem } from './output-validate.js';
import type { AnswerView } from './types.js';

export const ZIP_LIMITS = { memberBytes: 1024 * 1024, totalBytes: 4 * 1024 * 1024 } as const;
export const ZIP_MEMBERS = ['answer.json', 'answer.md', 'evidence.json'] as const;

/** The saved answer without its request (that is evidence.json), marked validated or unvalidated. */
export function answerJson(v: AnswerView) {
  const { request: _request, ...rest } = v;
  return { format: 'svc-selected-answer', version: 1, validation: validatedResult(v) ? 'validated' : 'unvalidated', notice: CITATION_NOTICE, answer: rest };
}

/** The immutable request as saved: SHA-256 of its canonical JSON is request_sha256. */
export function evidenceJson(v: AnswerView) {
  return { format: 'svc-selected-evidence', version: 1, answer_id: v.answer_id, request_sha256: v.request_sha256, request: v.request };
}

/** A fence longer than any backtick run in the text, so nothing in it reads as Markdown. */
export function fence(text: string, info = 'text'): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${info}\n${text}\n${f}`;
}

export function answerMarkdown(v: AnswerView): string {
  const result = validatedResult(v);
  const out: string[] = ['# Selected answer', ''];
  if (!result) out.push('**UNVALIDATED**: this answer did not pass strict validation or did not finish; nothing below is a validated result.', '');
  out.push(
    `- answer: ${v.answer_id}`,
    `- state: ${v.state}`,
    `- mode: ${v.request.mode}`,
    `- request sha256: ${v.request_sha256}`,
    `- project: ${v.project_id} (revision ${v.request.project_revision})`,
    `- vault: ${v.vault_id}`,
    `- created: ${v.created_at_utc}`,
    `- finished: ${v.finished_at_utc ?? 'not finished'}`,
    '',
    'Instruction (literal text):',
    '',
    fence(v.request.instruction),
    '',
  );
  if (v.error) out.push('Error (literal text):', '', fence(`${v.error.reason}: ${v.error.message}`), '');
  if (result) {
    out.push(`Status: ${result.status}`, '', `> ${CITATION_NOTICE}`, '');
    result.sections.forEach((sec, i) => {
      out.push(`## Section ${i + 1}: ${sec.kind}`, '');
      if (sec.title !== undefined) out.push('Title:', '', fence(sec.title), '');
      sec.items.forEach((item, j) => out.push(...itemMarkdown(item, `${i + 1}.${j + 1}`, v)));
    });
    out.push('## Limitations', '');
    if (result.limitations.length === 0) out.push('None stated.', '');
    for (const l of result.limitations) out.push(fence(l), '');
  } else {
    const text = unvalidatedText(v);
    out.push('## Unvalidated output', '', text === null ? 'No model output was saved.' : fence(text), '');
  }
  out.push('## Selected sources', '');
  for (const src of v.request.sources) {
    out.push(`### ${src.source_id}`, '', `- file: ${src.file_id}`, `- version: ${src.version_id}`, `- selection: ${selectionLabel(src)}`, `- source sha256: ${src.source_sha256}`, '', 'Name:', '', fence(src.filename), '', 'Text:', '', fence(src.text), '');
  }
  out.push('## Selected notes', '');
  if (v.request.notes.length === 0) out.push('None selected.', '');
  for (const n of v.request.notes) out.push(`### Note ${n.note_id} (revision ${n.note_revision})`, '', `- file: ${n.file_id}`, `- version: ${n.version_id}`, '', fence(n.text), '');
  return out.join('\n');
}

function itemMarkdown(item: OutputItem, label: string, v: AnswerView): string[] {
  const out = [`### Item ${label}: ${item.kind}`, '', fence(item.text), ''];
  if ('citations' in item) {
    for (const c of item.citations) out.push(`Citation ${citationPlace(c, v.request.sources.find((s) => s.source_id === c.source_id))}:`, '', fence(c.quote), '');
  }
  if ('note_ids' in item) out.push('Notes:', '', fence(item.note_ids.map(String).join(', ')), '');
  return out;
}

/** The three members, each checked against its limit before any ZIP is written. */
export function zipMembers(v: AnswerView): { name: (typeof ZIP_MEMBERS)[number]; bytes: Buffer }[] {
  const members = [
    { name: 'answer.json' as const, bytes: Buffer.from(`${JSON.stringify(answerJson(v), null, 2)}\n`, 'utf8') },
    { name: 'answer.md' as const, bytes: Buffer.from(answerMarkdown(v), 'utf8') },
    { name: 'evidence.json' as const, bytes: Buffer.from(`${JSON.stringify(evidenceJson(v), null, 2)}\n`, 'utf8') },
  ];
  for (const m of members) if (m.bytes.length > ZIP_LIMITS.memberBytes) throw exportLimit(m.name, ZIP_LIMITS.memberBytes);
  return members;
}

/** The whole ZIP in memory (at most 4 MiB), so a refusal never follows a partial download. */
export async function buildAnswerZip(v: AnswerView): Promise<Buffer> {
  const members = zipMembers(v);
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  // Built from local components: the DOS timestamp is the same in every time zone.
  const mtime = new Date(2000, 0, 1, 0, 0, 0);
  for (const m of members) zip.addBuffer(m.bytes, m.name, { mtime, mode: 0o100644, compress: false, forceDosTimestamp: true });
  zip.end();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > ZIP_LIMITS.totalBytes) throw exportLimit('zip', ZIP_LIMITS.totalBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

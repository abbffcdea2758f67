/**
 * The selected-answer ZIP (spec 2, Exports): exactly answer.json, answer.md and
 * evidence.json, in that order, from one snapshot. Bytes are deterministic for
 * an identical snapshot: members are stored (no compression, so no dependence
 * on the zlib build), with one fixed DOS timestamp and no extended time field.
 * It is not a full-paper archive or a restore format.
 */
import { exportLimit, isValidated, CITATION_NOTICE, type ExportSnapshot } from './export-snapshot.js';
import type { OutputItem } from './output-validate.js';

export const ZIP_LIMITS = { memberBytes: 1024 * 1024, totalBytes: 4 * 1024 * 1024 } as const;
export const ZIP_MEMBERS = ['answer.json', 'answer.md', 'evidence.json'] as const;

export function answerJson(s: ExportSnapshot) {
  const validated = isValidated(s);
  return {
    format: 'svc-selected-answer',
    version: 1,
    answer_id: s.answer_id,
    vault_id: s.vault_id,
    project_id: s.project_id,
    request_sha256: s.request_sha256,
    mode: s.mode,
    state: s.state,
    created_at_utc: s.created_at_utc,
    finished_at_utc: s.finished_at_utc,
    validation: validated ? 'validated' : 'unvalidated',
    result: validated ? s.result : null,
    unvalidated_output: s.unvalidated_output,
    reports: s.reports ?? null,
    notice: CITATION_NOTICE,
  };
}

export function evidenceJson(s: ExportSnapshot) {
  return {
    format: 'svc-selected-evidence',
    version: 1,
    answer_id: s.answer_id,
    vault_id: s.vault_id,
    project_id: s.project_id,
    request_sha256: s.request_sha256,
    instruction: s.instruction,
    sources: s.sources,
    notes: s.notes,
  };
}

/** A fence longer than any backtick run in the text, so nothing in it reads as Markdown. */
export function fence(text: string, info = 'text'): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${info}\n${text}\n${f}`;
}

export function answerMarkdown(s: ExportSnapshot): string {
  const validated = isValidated(s);
  const out: string[] = ['# Selected answer', ''];
  if (!validated) out.push('**UNVALIDATED**: this answer did not pass strict validation (or did not finish); nothing below is a validated result.', '');
  out.push(
    `- answer: ${s.answer_id}`,
    `- state: ${s.state}`,
    `- mode: ${fenceInline(s.mode)}`,
    `- request sha256: ${s.request_sha256}`,
    `- project: ${s.project_id}`,
    `- vault: ${s.vault_id}`,
    `- created: ${fenceInline(s.created_at_utc)}`,
    `- finished: ${s.finished_at_utc === null ? 'not finished' : fenceInline(s.finished_at_utc)}`,
    '',
    'Instruction (literal text):',
    '',
    fence(s.instruction),
    '',
  );
  if (validated && s.result) {
    const r = s.result;
    out.push(`Status: ${r.status}`, '', `> ${CITATION_NOTICE}`, '');
    r.sections.forEach((sec, i) => {
      out.push(`## Section ${i + 1}: ${sec.kind}`, '');
      if (sec.title !== undefined) out.push('Title:', '', fence(sec.title), '');
      sec.items.forEach((item, j) => out.push(...itemMarkdown(item, `${i + 1}.${j + 1}`)));
    });
    out.push('## Limitations', '');
    if (r.limitations.length === 0) out.push('None stated.', '');
    for (const l of r.limitations) out.push(fence(l), '');
  } else {
    out.push('## Unvalidated output', '');
    out.push(s.unvalidated_output === null ? 'No model output was saved.' : fence(s.unvalidated_output), '');
  }
  out.push('## Selected sources', '');
  for (const src of s.sources) {
    out.push(`### ${src.source_id}`, '', `- file: ${src.file_id}`, `- version: ${src.version_id}`, `- source sha256: ${src.source_sha256}`, '', 'Name:', '', fence(src.filename), '', 'Selection:', '', fence(src.selection), '', 'Text:', '', fence(src.text), '');
  }
  out.push('## Selected notes', '');
  if (s.notes.length === 0) out.push('None selected.', '');
  for (const n of s.notes) out.push(`### Note ${fenceInline(String(n.note_id))}`, '', `- file: ${n.file_id}`, `- version: ${n.version_id}`, '', fence(n.body), '');
  return out.join('\n');
}

function itemMarkdown(item: OutputItem, label: string): string[] {
  const out = [`### Item ${label}: ${item.kind}`, '', fence(item.text), ''];
  if ('citations' in item) {
    for (const c of item.citations) out.push(`Citation ${c.source_id}, codepoints [${c.start}, ${c.end}):`, '', fence(c.quote), '');
  }
  if ('note_ids' in item) out.push(`Notes: ${item.note_ids.map((id) => fenceInline(String(id))).join(', ')}`, '');
  return out;
}

/** Inline literal text in a code span long enough for its backticks. */
function fenceInline(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = '`'.repeat(longest + 1);
  return `${f} ${text.replace(/[\r\n]+/g, ' ')} ${f}`;
}

/** The three members, each checked against its limit before any ZIP is written. */
export function zipMembers(s: ExportSnapshot): { name: (typeof ZIP_MEMBERS)[number]; bytes: Buffer }[] {
  const members = [
    { name: 'answer.json' as const, bytes: Buffer.from(`${JSON.stringify(answerJson(s), null, 2)}\n`, 'utf8') },
    { name: 'answer.md' as const, bytes: Buffer.from(answerMarkdown(s), 'utf8') },
    { name: 'evidence.json' as const, bytes: Buffer.from(`${JSON.stringify(evidenceJson(s), null, 2)}\n`, 'utf8') },
  ];
  for (const m of members) if (m.bytes.length > ZIP_LIMITS.memberBytes) throw exportLimit(m.name, ZIP_LIMITS.memberBytes);
  return members;
}

/** The whole ZIP in memory (at most 4 MiB), so a refusal never follows a partial download. */
export async function buildAnswerZip(s: ExportSnapshot): Promise<Buffer> {
  const members = zipMembers(s);
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

/**
 * Human views of selected answers: the preview a person reads before
 * consenting (every source with its file, page, size and hash, the notes, the
 * byte counts and the request hash), an answer, and history rows.
 */
import type { AnswerPage, AnswerView, PreviewView } from '../../src/answers/types.js';
import { citationPlace, selectionLabel, unvalidatedText, validatedResult } from '../../src/answers/export-snapshot.js';
import { table } from '../lib/io.js';
import { oneLine } from '../lib/words.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const indent = (text: string) => text.split('\n').map((l) => `    ${l}`).join('\n');

export function previewText(p: PreviewView): string {
  const r = p.payload;
  const out = [
    `Preview ${p.preview_id} (expires ${p.expires_at_utc})`,
    `Project ${p.project_id} at revision ${p.project_revision}; mode ${r.mode}; ${r.choices.runtime} ${r.choices.provider}${r.choices.model ? ` model ${r.choices.model}` : ''}${r.choices.effort ? ` effort ${r.choices.effort}` : ''}`,
    '',
    'Instruction:',
    indent(r.instruction),
    '',
    `Files (${p.files.length}):`,
    ...p.files.map((f) => `  ${oneLine(f.filename)}  ${f.file_id} version ${f.version_id}  pages ${f.pages.join(', ')}${f.page_count === null ? '' : ` of ${f.page_count}`}  sha256 ${f.file_sha256}`),
    '',
    `Sources sent (${r.sources.length}):`,
  ];
  for (const s of r.sources) {
    out.push(`  ${s.source_id}  ${oneLine(s.filename)}: ${selectionLabel(s)}  ${bytes(s.text)} bytes  sha256 ${s.source_sha256}`, indent(s.text), '');
  }
  out.push(`Notes selected (${r.notes.length}):`);
  for (const n of r.notes) out.push(`  #${n.note_id} revision ${n.note_revision}  ${bytes(n.text)} bytes`, indent(n.text));
  const unselected = p.available_notes.filter((n) => !n.selected);
  if (unselected.length > 0) out.push(`  (${unselected.length} other note(s) of these files are not sent; add them with --note <id>: ${unselected.map((n) => n.note_id).join(', ')})`);
  out.push('', 'Limitations:', ...p.limitations.map((l) => `  - ${l}`), '');
  out.push(`System prompt: ${p.system_bytes} bytes, sha256 ${p.system_sha256}`, `User prompt:   ${p.user_bytes} bytes, sha256 ${p.user_sha256}`);
  out.push(`Request sha256: ${p.request_sha256}`, '');
  // Said now, not first at send: previewing needs no key, sending does.
  if (!p.connection.available) out.push(`This connection cannot run here now: ${oneLine(p.connection.reason ?? 'its prerequisites are missing.')} Until then svc answer send is refused.`, '');
  out.push(`To send exactly this: svc answer send ${p.project_id} ${p.preview_id} --sha ${p.request_sha256}`);
  return out.join('\n');
}

export function answerText(a: AnswerView): string {
  const out = [`Answer ${a.answer_id}: ${a.state}`, `  request ${a.request_sha256}, mode ${a.request.mode}, ${a.request.sources.length} source(s), ${a.request.notes.length} note(s)`, `  created ${a.created_at_utc}${a.finished_at_utc ? `, finished ${a.finished_at_utc}` : ''}`];
  if (a.error) out.push(`  error ${a.error.reason}: ${oneLine(a.error.message)}`);
  if (a.reported_model) out.push(`  model ${oneLine(a.reported_model.model)} (as reported)`);
  if (a.usage.provenance === 'reported') out.push(`  tokens in ${a.usage.input_tokens ?? '?'}, out ${a.usage.output_tokens ?? '?'} (reported; billing unknown)`);
  // What each source id stands for, so a citation names its file, page and range.
  const sources = new Map(a.request.sources.map((s) => [s.source_id, s]));
  out.push('', 'Instruction:', indent(a.request.instruction));
  out.push('', 'Sources:', ...a.request.sources.map((s) => `  ${s.source_id}  ${oneLine(s.filename)}: ${selectionLabel(s)}`));
  const result = validatedResult(a);
  if (result) {
    out.push('', `Status: ${result.status} (a citation shows that its quote is the selected text, not that it supports the claim)`);
    for (const s of result.sections) {
      out.push('', `== ${s.kind}${s.title ? `: ${oneLine(s.title)}` : ''}`);
      for (const item of s.items) {
        out.push(`- [${item.kind}] ${item.text}`);
        if ('citations' in item) {
          for (const c of item.citations) {
            const s = sources.get(c.source_id);
            out.push(`    cites ${citationPlace(c, s)}${s ? ` of ${oneLine(s.filename)}` : ''}: “${c.quote}”`);
          }
        }
        if ('note_ids' in item) out.push(`    notes ${item.note_ids.join(', ')}`);
      }
    }
    if (result.limitations.length) out.push('', 'Limitations:', ...result.limitations.map((l) => `  - ${l}`));
  } else {
    const text = unvalidatedText(a);
    if (text !== null) out.push('', 'UNVALIDATED output:', indent(text));
  }
  return out.join('\n');
}

export function historyText(page: AnswerPage, project: string): string {
  if (page.answers.length === 0 && page.total === 0) return `No answers yet; \`svc answer preview ${project} --select FILE:PAGE --instruction TEXT --runtime api_key --provider ID\` prepares one to read before sending.`;
  return table([['ANSWER_ID', 'STATE', 'MODE', 'SOURCES', 'CREATED'], ...page.answers.map((a) => [a.answer_id, a.state, a.mode, String(a.source_count), a.created_at_utc])]);
}

/**
 * `--select file[@version]:page[:start-end]`: one page, or one exact codepoint
 * passage (end exclusive) of a page. The file is its Library ID (a number) or
 * file_id. Without @version the project's pinned
 * version of that file is used. Segments of one file version are grouped.
 */
import type { SelectionInput, SelectionSegment } from '../../src/answers/types.js';
import type { AnswerClient } from './client.js';
import { given, usageError } from '../lib/flags.js';

export interface Select { file_id: string; version_id: string | null; segment: SelectionSegment }

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const FILE = `${UUID}|[1-9][0-9]{0,14}`;
const FORM = new RegExp(`^(${FILE})(?:@(${UUID}))?:([1-9][0-9]{0,5})(?::([0-9]{1,9})-([0-9]{1,9}))?$`);

export function parseSelect(raw: string): Select {
  const m = FORM.exec(raw);
  if (!m) throw usageError(`--select must be FILE[@version_id]:page or FILE[@version_id]:page:start-end (codepoints, end exclusive; FILE is the ID or FILE_ID \`svc library list\` prints), not ${given(raw)}.`);
  const page = Number(m[3]);
  if (m[4] === undefined) return { file_id: m[1]!, version_id: m[2] ?? null, segment: { kind: 'page', page } };
  const start = Number(m[4]);
  const end = Number(m[5]);
  if (end <= start) throw usageError(`--select passage end must be after its start, not ${given(raw)}.`);
  return { file_id: m[1]!, version_id: m[2] ?? null, segment: { kind: 'passage', page, start_codepoint: start, end_codepoint: end } };
}

/** Fill in pinned versions from the project's memberships and group segments per file version, in the order given. */
export async function resolveVersions(c: AnswerClient, projectPath: string, selects: Select[]): Promise<SelectionInput[]> {
  const pinned = new Map<string, string>();
  if (selects.some((s) => s.version_id === null)) {
    let after = 0;
    for (;;) {
      const page = await c.json('GET', `${projectPath}/files?expected_vault_id=${c.vaultId}&limit=50&after_id=${after}`);
      for (const m of page.items as { file_id: string; version_id: string }[]) if (!pinned.has(m.file_id)) pinned.set(m.file_id, m.version_id);
      if (!page.has_more || page.next_after_id === null) break;
      after = page.next_after_id;
    }
  }
  const out: SelectionInput[] = [];
  for (const given of selects) {
    const s = { ...given, file_id: c.fileIdOf(given.file_id) };
    const version = s.version_id ?? pinned.get(s.file_id);
    if (!version) throw usageError(`File ${s.file_id} is not a member of this project; add it with \`svc evidence add PROJECT FILE\` (\`svc evidence show PROJECT\` lists the members).`, 'not_a_member');
    let entry = out.find((e) => e.file_id === s.file_id && e.version_id === version);
    if (!entry) out.push((entry = { file_id: s.file_id, version_id: version, segments: [] }));
    entry.segments.push(s.segment);
  }
  return out;
}

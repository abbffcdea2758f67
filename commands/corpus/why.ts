import type { Command } from 'commander';
import { whyDocument } from '../../src/explorer/why.js';
import type { Unverifiable } from '../../src/wire/papers.js';
import { withContext } from '../lib/context.js';
import { utcMinute } from '../lib/dates.js';
import { idArg } from '../lib/flags.js';
import { emit, type Io } from '../lib/io.js';
import { oneLine } from '../lib/words.js';

type Why = ReturnType<typeof whyDocument>;

function human(why: Why): string {
  const lines = [`${why.paper.title} (${why.paper.publication_date ?? 'undated'})`, `First seen ${utcMinute(why.first_seen_at_utc, 'never recorded')}.`, '', 'Found by:'];
  for (const f of why.found_by) lines.push(`  ${f.source} ${f.native_id}  first ${f.first_seen_at_utc.slice(0, 10)}, last ${f.last_seen_at_utc.slice(0, 10)}${f.relevance_ranked ? '  (relevance-ranked)' : ''}`);
  if (why.executions.length) lines.push('', 'Runs:');
  // The JSON rank counts from 0, as GET /api/documents/{doc_id}/why answers it; the text counts from 1 and says of what.
  for (const e of why.executions) {
    lines.push(`  execution ${e.execution_id} (${e.type}${e.routine ? `, routine ${e.routine.id} ${e.routine.name ?? '(deleted)'}` : ''}) ${utcMinute(e.started_at_utc)}  position ${e.rank + 1} in ${e.source}'s answer  "${e.query}"`);
    for (const t of e.terms) lines.push(`    ${t.kind === 'keyword' ? 'keyword' : 'word'} "${t.term}": ${t.fields.length ? t.fields.join(', ') : 'in no field'}`);
  }
  if (why.cannot_verify.length) lines.push('', 'Cannot be verified here:', ...groupByExecution(why.cannot_verify_items).map((s) => `  - ${s}`));
  // The title, routine names, queries and terms come from sources and from HTTP or MCP: each stays on its line.
  return lines.map(oneLine).join('\n');
}

/**
 * The reasons as the terminal lists them: one several runs give is said once, naming the runs
 * ("Executions 3, 4, 5, 6, 7: X"; a routine repeats the same reason every run), where the first of
 * them stood; any other as it is.
 */
export function groupByExecution(items: Unverifiable[]): string[] {
  const out: string[] = [];
  const groups = new Map<string, { index: number; ids: number[] }>();
  for (const item of items) {
    if (item.execution_id === null) { out.push(item.text); continue; }
    const group = groups.get(item.text);
    if (group) group.ids.push(item.execution_id);
    else { groups.set(item.text, { index: out.length, ids: [item.execution_id] }); out.push(''); }
  }
  for (const [text, { index, ids }] of groups) out[index] = `${ids.length === 1 ? 'Execution' : 'Executions'} ${ids.join(', ')}: ${text}`;
  return out;
}

export function register(program: Command, io: Io): void {
  program
    .command('why')
    .argument('<doc_id>', 'document id')
    .description('what svc can verify about why a paper is in the corpus, and what it cannot')
    .action((raw: string) => {
      const id = idArg(raw, 'document');
      return withContext(io, (ctx) => {
        const why = whyDocument(ctx, id);
        emit(io, why, () => human(why));
      });
    });
}

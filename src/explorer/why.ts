/**
 * "Why is this paper here": what svc can check locally about how a paper came
 * into the corpus. Which runs found it (and the routines behind them), from
 * which source, at what rank; which of each run's query words and keywords
 * occur in which field of the record that source gave; and, stated plainly,
 * what cannot be verified from here. The paper itself comes in full (abstract,
 * identifiers with their links): the window's paper page reads it here.
 */
import type { Context } from '../context.js';
import { provenanceOf, type ProvenanceRow } from '../corpus/repo.js';
import { notFound } from '../errors.js';
import type { RunSpec } from '../executions/request.js';
import { stem, words } from '../routines/coverage-terms.js';
import { minuteUtc } from '../util/words.js';
import { findSource } from '../sources/index.js';
import type { NormalizedRecord } from '../sources/types.js';
import { paperDetail } from './paper.js';
import { prepared } from './repo.js';
import type { TermMatch, Unverifiable, WhyAnswer, WhyExecution, WhyField, WhyVerdict } from '../wire/papers.js';

const FIELDS: readonly WhyField[] = ['title', 'abstract', 'authors', 'venue', 'categories'];

export const WHY_METHOD =
  "Each run's query words (two letters or more, a light suffix stripped, matched as word prefixes) and each keyword (as a whole phrase) are looked for, case and accents ignored, " +
  "in the title, abstract, authors, venue and categories of the record the source gave (the latest one svc kept from that source). rank is the paper's position in that source's answer, counted from 0 (0 is the first paper it returned).";

function fieldTexts(record: NormalizedRecord): Record<WhyField, string> {
  return {
    title: record.title ?? '',
    abstract: record.abstract ?? '',
    authors: (record.authors ?? []).map((a) => a.name).join('; '),
    venue: record.venue ?? '',
    categories: (record.categories ?? []).join('; '),
  };
}

const fold = (text: string) => words(text).join(' ');

/** Which terms of a run occur in which fields of a record. */
export function matchTerms(spec: Pick<RunSpec, 'query' | 'keywords'>, record: NormalizedRecord): TermMatch[] {
  const texts = fieldTexts(record);
  const folded = Object.fromEntries(FIELDS.map((f) => [f, words(texts[f])])) as Record<WhyField, string[]>;
  const out: TermMatch[] = [];
  for (const word of new Set(words(spec.query).filter((w) => w.length >= 2))) {
    const prefix = stem(word);
    out.push({ term: word, kind: 'query_word', fields: FIELDS.filter((f) => folded[f].some((w) => w.startsWith(prefix))) });
  }
  for (const keyword of new Set(spec.keywords)) {
    const phrase = fold(keyword);
    if (!phrase) continue;
    out.push({ term: keyword, kind: 'keyword', fields: FIELDS.filter((f) => ` ${folded[f].join(' ')} `.includes(` ${phrase} `)) });
  }
  return out;
}

interface FoundRow {
  execution_id: number;
  source: string;
  rank: number;
  is_new: number;
  type: string;
  status: string;
  started_at_utc: string;
  routine_id: number | null;
  routine_name: string | null;
  parameters_json: string;
}

/** The sentence `cannot_verify` holds for `item`. */
const sentenceOf = (item: Unverifiable) => (item.execution_id === null ? item.text : `Execution ${item.execution_id}: ${item.text}`);

const relevanceRanked = (source: string) => {
  const entry = findSource(source);
  return !(entry && 'capabilities' in entry && entry.capabilities.scanLimitPages !== undefined);
};

/**
 * @example whyDocument(ctx, 42).cannot_verify
 */
export function whyDocument(ctx: Context, documentId: number): WhyAnswer {
  const paper = paperDetail(ctx.db, documentId);
  if (!paper) throw notFound('document_not_found', `No document ${documentId}.`);
  const provenance = provenanceOf(ctx.db, documentId);
  const bySource = new Map<string, ProvenanceRow[]>();
  for (const p of provenance) bySource.set(p.source, [...(bySource.get(p.source) ?? []), p]);
  const rows = prepared(
    ctx.db,
    `SELECT ed.execution_id, ed.source, ed.rank, ed.is_new, e.type, e.status, e.started_at_utc, e.routine_id, r.name AS routine_name, e.parameters_json
       FROM execution_documents ed JOIN executions e ON e.id = ed.execution_id LEFT JOIN routines r ON r.id = e.routine_id
      WHERE ed.document_id = ? ORDER BY e.started_at_utc, ed.execution_id, ed.source`,
  ).all(documentId) as FoundRow[];

  const cannot: Unverifiable[] = [];
  const ofRun = (execution_id: number, text: string) => cannot.push({ execution_id, text });
  const whole = (text: string) => cannot.push({ execution_id: null, text });
  const findings = rows.map((row): WhyExecution => {
    const spec = JSON.parse(row.parameters_json) as RunSpec;
    const records = bySource.get(row.source) ?? [];
    const record = records[records.length - 1]?.record;
    const terms = record ? matchTerms(spec, record) : [];
    const matched = terms.filter((t) => t.fields.length > 0);
    const verdict: WhyVerdict = !record ? 'record_missing' : terms.length === 0 ? 'no_terms' : matched.length === terms.length ? 'all_terms_matched' : matched.length > 0 ? 'some_terms_matched' : 'no_term_matched';
    return {
      execution_id: row.execution_id,
      type: row.type,
      status: row.status,
      started_at_utc: row.started_at_utc,
      routine: row.routine_id === null ? null : { id: row.routine_id, name: row.routine_name, exists: row.routine_name !== null },
      source: row.source,
      rank: row.rank,
      first_found_by_this_run: row.is_new === 1,
      query: spec.query,
      keywords: spec.keywords,
      date_window: { date_from: spec.dateFrom, date_to: spec.dateTo },
      author: spec.author,
      relevance_ranked: relevanceRanked(row.source),
      terms,
      verdict,
    };
  });

  for (const f of findings) {
    if (f.verdict === 'no_term_matched' && f.relevance_ranked) {
      ofRun(f.execution_id, `${f.source} returned this paper although none of the run's words appear in the record svc received. ${f.source} ranks by relevance and may match text svc never sees (full text, subject headings, citations); why it ranked the paper cannot be verified here.`);
    } else if (f.verdict === 'some_terms_matched' && f.relevance_ranked) {
      ofRun(f.execution_id, `only some of the run's words appear in the ${f.source} record; the others may have matched text svc never received.`);
    } else if (f.verdict === 'record_missing') {
      ofRun(f.execution_id, `the ${f.source} record is no longer stored, so which words matched cannot be checked.`);
    }
    if (f.author) whole(`Execution ${f.execution_id} searched for the author "${f.author}"; whether the source matched that person or only the name is the source's judgement.`);
  }
  const runSources = new Set(rows.map((r) => r.source));
  const orphans = provenance.filter((p) => !runSources.has(p.source));
  for (const p of orphans) {
    whole(`${p.source} record ${p.native_id} (first seen ${minuteUtc(p.first_seen_at_utc)}) is kept, but no stored run links it to this paper: the run was deleted, or the record joined this paper when two records were found to be the same work. What was asked then is not known.`);
  }
  if (!provenance.some((p) => p.record.abstract)) whole('No source gave an abstract, so matches were judged on title, authors, venue and categories only.');
  for (const p of provenance) if (p.last_seen_at_utc !== p.first_seen_at_utc) {
    whole(`The ${p.source} record shown is the one last seen (${minuteUtc(p.last_seen_at_utc)}); earlier runs may have received a different version of it.`);
    break;
  }

  // The same sentence twice is said once.
  const unverifiable = [...new Map(cannot.map((item) => [sentenceOf(item), item])).values()];
  return {
    document_id: documentId,
    paper,
    first_seen_at_utc: provenance[0]?.first_seen_at_utc ?? null,
    found_by: provenance.map((p) => ({
      source: p.source,
      native_id: p.native_id,
      first_seen_at_utc: p.first_seen_at_utc,
      last_seen_at_utc: p.last_seen_at_utc,
      relevance_ranked: relevanceRanked(p.source),
      linked_to_stored_run: runSources.has(p.source),
    })),
    executions: findings,
    routines: [...new Map(findings.filter((f) => f.routine).map((f) => [f.routine!.id, f.routine!])).values()],
    cannot_verify: unverifiable.map(sentenceOf),
    cannot_verify_items: unverifiable,
    method: WHY_METHOD,
  };
}

/**
 * The report bundle of one delivery: what the routine run found, in one JSON
 * document (the folder channel writes it, the signed bundle route answers it,
 * the webhook envelope links to it), and the digest of new papers the email
 * and the feed show. Nothing here names a destination.
 */
import type { Context } from '../context.js';
import type { ExecutionDocument } from '../executions/documents.js';
import { executionDocumentsPage } from '../executions/documents.js';
import { getExecution } from '../executions/repo.js';
import { renderReport, type ReportOptions } from '../executions/report.js';
import { searchWords, type RunSpec } from '../executions/request.js';
import { followNews, type FollowNews } from '../follow/check.js';
import { followDigestHtml, followDigestText, followDigestTitle } from './follow-digest.js';
import { deliveryKey } from './key.js';
import { routineFacts, type DeliveryRow } from './repo.js';
import { count } from '../util/words.js';

export const BUNDLE_PAPER_LIMIT = 500;
export const DIGEST_PAPER_LIMIT = 50;

export interface PaperSummary {
  id: number;
  title: string;
  authors: string[];
  year: number | null;
  publication_date: string | null;
  venue: string | null;
  doi: string | null;
  url: string | null;
  is_new: boolean;
}

export interface ReportBundle {
  format: 'svc-report-bundle';
  version: 1;
  delivery_id: number;
  /** The delivery's identity across id reuse (key.ts): what a receiver deduplicates by. */
  delivery_key: string;
  routine: { id: number | null; name: string };
  execution: { id: number; type: string; status: string; query: string; author: string | null; started_at_utc: string; finished_at_utc: string | null };
  counts: { results: number; new: number };
  new_papers: PaperSummary[];
  papers: PaperSummary[];
  papers_truncated: boolean;
  report_text: string;
  /** A fire of a routine following a profile for retractions: what was checked and the new notices (its news); else null. */
  follow: FollowNews | null;
}

function summary(doc: ExecutionDocument): PaperSummary {
  return {
    id: doc.id,
    title: doc.title,
    authors: doc.authors.slice(0, 10).map((a) => a.name ?? [a.given, a.family].filter(Boolean).join(' ')),
    year: doc.year,
    publication_date: doc.publication_date,
    venue: doc.venue,
    doi: doc.doi,
    url: doc.url,
    is_new: doc.is_new,
  };
}

export function buildBundle(ctx: Context, delivery: DeliveryRow, report: ReportOptions = {}): ReportBundle {
  const execution = getExecution(ctx.db, delivery.execution_id);
  if (!execution) throw new Error(`execution ${delivery.execution_id} is gone`);
  const routine = delivery.routine_id === null ? undefined : routineFacts(ctx.db, delivery.routine_id);
  const page = executionDocumentsPage(ctx, execution.id, BUNDLE_PAPER_LIMIT, 0);
  const papers = page.documents.map(summary);
  return {
    format: 'svc-report-bundle',
    version: 1,
    delivery_id: delivery.id,
    delivery_key: deliveryKey(delivery),
    routine: { id: delivery.routine_id, name: routine?.name ?? `routine ${delivery.routine_id ?? '(deleted)'}` },
    execution: { id: execution.id, type: execution.type, status: execution.status, query: execution.query, author: (JSON.parse(execution.parameters_json) as RunSpec).author ?? null, started_at_utc: execution.started_at_utc, finished_at_utc: execution.finished_at_utc },
    counts: { results: execution.result_count, new: execution.new_count },
    new_papers: papers.filter((p) => p.is_new),
    papers,
    papers_truncated: page.total > papers.length,
    report_text: renderReport(ctx, execution.id, report) ?? '',
    follow: followNews(ctx, execution.id),
  };
}

export function digestTitle(bundle: ReportBundle): string {
  if (bundle.follow) return followDigestTitle({ ...bundle, follow: bundle.follow });
  const n = bundle.counts.new;
  return `${bundle.routine.name}: ${count(n, 'new paper')} (run ${bundle.execution.id})`;
}

function line(p: PaperSummary): string {
  const who = p.authors.length > 3 ? `${p.authors.slice(0, 3).join(', ')} et al.` : p.authors.join(', ');
  return [p.title, who && `— ${who}`, p.year && `(${p.year})`].filter(Boolean).join(' ');
}

export function digestText(bundle: ReportBundle, extra: string[] = []): string {
  const shown = bundle.new_papers.slice(0, DIGEST_PAPER_LIMIT);
  const out = [digestTitle(bundle), '', `Query: ${searchWords(bundle.execution)}`, `Results: ${bundle.counts.results} (${bundle.counts.new} new)`, ''];
  if (bundle.follow) return [digestTitle(bundle), '', ...followDigestText({ ...bundle, follow: bundle.follow }), ...(extra.length ? ['', ...extra] : []), '', '— svc'].join('\n') + '\n';
  if (shown.length === 0) out.push('No new papers this run.');
  shown.forEach((p, i) => out.push(`${i + 1}. ${line(p)}`, ...(p.url ? [`   ${p.url}`] : [])));
  if (bundle.new_papers.length > shown.length) out.push(`… and ${bundle.new_papers.length - shown.length} more in the attached report.`);
  return [...out, ...(extra.length ? ['', ...extra] : []), '', '— svc'].join('\n') + '\n';
}

/**
 * Characters XML 1.0 forbids (C0 controls other than tab, newline and carriage
 * return; U+FFFE and U+FFFF; unpaired surrogates). Titles and abstracts from
 * sources do carry them now and then; one of them makes a feed a reader rejects.
 */
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const escapeXml = (s: string) => s.replace(NOT_XML_CHAR, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * The link a digest may make live for a URL a source gave (a paper's, a notice's), or null: only
 * an http(s) URL without a user name or password ("https://doi.org@elsewhere.example/" reads as
 * doi.org and leads elsewhere). Any other URL is shown as text.
 */
export function safeHref(url: string | null): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.username || parsed.password ? null : url;
  } catch {
    return null;
  }
}

export function digestHtml(bundle: ReportBundle, extra: string[] = []): string {
  const shown = bundle.new_papers.slice(0, DIGEST_PAPER_LIMIT);
  if (bundle.follow) return [`<h2>${escapeXml(digestTitle(bundle))}</h2>`, ...followDigestHtml({ ...bundle, follow: bundle.follow }, escapeXml, safeHref), ...extra.map((e) => `<p>${escapeXml(e)}</p>`)].join('\n');
  const items = shown.map((p) => {
    const href = safeHref(p.url);
    const title = href ? `<a href="${escapeXml(href)}">${escapeXml(p.title)}</a>` : escapeXml(p.title);
    const rest = line({ ...p, title: '' }).trim();
    return `<li>${title}${rest ? ` ${escapeXml(rest)}` : ''}</li>`;
  });
  return [
    `<h2>${escapeXml(digestTitle(bundle))}</h2>`,
    `<p>Query: ${escapeXml(searchWords(bundle.execution))} — ${count(bundle.counts.results, 'result')} (${bundle.counts.new} new)</p>`,
    shown.length ? `<ol>${items.join('')}</ol>` : '<p>No new papers this run.</p>',
    bundle.new_papers.length > shown.length ? `<p>… and ${bundle.new_papers.length - shown.length} more in the attached report.</p>` : '',
    ...extra.map((e) => `<p>${escapeXml(e)}</p>`),
  ].join('\n');
}

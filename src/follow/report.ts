/**
 * The lifecycle section of a run's report and of its digest, for a fire of a
 * routine that follows a profile for retractions (follow.ts): what was
 * checked, what could not be, and each new notice with its link. Plain text
 * here; the digest's HTML is built from the same lines.
 */
import type { Context } from '../context.js';
import { followNews, type FollowNews } from './check.js';
import { count } from '../util/words.js';

type Notice = FollowNews['events'][number];

const KIND_WORD: Record<string, string> = { retraction: 'Retraction', version_change: 'Correction or new version', preprint_to_published: 'Published version' };

export function noticeHeadline(e: Notice): string {
  return `${KIND_WORD[e.kind] ?? e.kind}: ${(e.title ?? `paper ${e.document_id}`).replace(/\.$/, '')}.${e.doi ? ` doi:${e.doi}` : ''}`;
}

export function noticeDetail(e: Notice): string {
  const when = e.event_date ? `${e.event_date}, ` : '';
  const label = e.label && e.label !== KIND_WORD[e.kind] ? `${e.label}; ` : '';
  const basis = e.basis === 'orcid' ? 'matched by ORCID' : e.basis ? `matched by ${e.basis.replace(/_/g, ' ')}: a name match may be a namesake` : 'no longer matched to the profile';
  return `${label}${when}from ${e.source}; ${basis}`;
}

/** One line on how far the check got. */
export function checkSummary(news: FollowNews): string {
  const reached = `Checked ${news.checked} of the ${news.papers} papers matched to the profile (up to ${news.check_limit} a run, least recently tried first)`;
  const failed = news.failed ? `; ${news.failed} could not be checked and are tried again in turn` : '';
  const waiting = news.not_reached ? `; ${news.not_reached} wait for the next runs` : '';
  return `${reached}${failed}${waiting}.`;
}

export function counts(news: FollowNews): string {
  const retractions = news.events.filter((e) => e.kind === 'retraction').length;
  const others = news.events.length - retractions;
  return `${count(retractions, 'retraction')}, ${count(others, 'correction')} or new version${others === 1 ? '' : 's'}`;
}

/** The report's section (empty for any run that is not such a fire). */
export function followReportLines(ctx: Context, executionId: number): string[] {
  const news = followNews(ctx, executionId);
  return news ? ['', ...followSection(news)] : [];
}

/** The section as the report and `svc executions show` print it: a heading, then indented lines. */
export function followSection(news: FollowNews): string[] {
  const lines = [`Lifecycle notices on ${news.profile_name}'s papers (watch profile ${news.profile_id}, mode retractions)`, `  ${checkSummary(news)}`];
  for (const error of news.lookup_errors.slice(0, 5)) lines.push(`  could not check ${error}`);
  // The error says what happened in its own words (the check stopped, the run was cancelled, the routine deleted).
  if (news.error) lines.push(`  ${news.error[0]!.toUpperCase()}${news.error.slice(1)}.`);
  lines.push(`  New since the routine last reported: ${counts(news)}`);
  news.events.forEach((e, i) => lines.push(`  ${String(i + 1).padStart(3)}. ${noticeHeadline(e)}`, `       notice ${e.notice_url} (${noticeDetail(e)})`));
  return lines;
}

/**
 * The digest of a fire of a routine that follows a profile for retractions:
 * its news is the lifecycle notices on the person's papers (with their
 * links), not the new papers, which the attached report and the bundle still
 * list. bundle.ts calls these when the bundle carries `follow`.
 */
import type { FollowNews } from '../follow/check.js';
import { checkSummary, counts, noticeDetail, noticeHeadline } from '../follow/report.js';
import { count } from '../util/words.js';

interface Followed {
  routine: { name: string };
  execution: { id: number };
  counts: { results: number; new: number };
  follow: FollowNews;
}

export function followDigestTitle(b: Followed): string {
  const n = b.follow.events.length;
  return `${b.routine.name}: ${count(n, 'new notice')} on ${b.follow.profile_name}'s papers (run ${b.execution.id})`;
}

/**
 * The "run completed" notification of such a fire: its news is the notices, as the digest's title says.
 * @example followNotification('r', news) // "r: 1 new notice on Ada Lovelace's papers (1 retraction, 0 corrections or new versions)."
 */
export function followNotification(routineName: string, follow: FollowNews): string {
  const n = follow.events.length;
  const news = n === 0 ? 'no new notices' : `${count(n, 'new notice')}`;
  const unchecked = follow.failed || follow.error ? ' Some papers could not be checked; the report says why.' : '';
  return `${routineName}: ${news} on ${follow.profile_name}'s papers${n === 0 ? '' : ` (${counts(follow)})`}.${unchecked}`;
}

function intro(b: Followed): string {
  return `Following ${b.follow.profile_name} (watch profile ${b.follow.profile_id}) for retractions, corrections and new versions: ${counts(b.follow)}.`;
}

function after(b: Followed): string[] {
  return [
    checkSummary(b.follow),
    ...(b.follow.failed || b.follow.error ? [`Some papers could not be checked${b.follow.error ? ` (${b.follow.error})` : ''}; the run's report says why.`] : []),
    `This run also found ${b.counts.results} papers by them (${b.counts.new} new to the corpus), listed in the report.`,
  ];
}

export function followDigestText(b: Followed): string[] {
  const out = [intro(b), ''];
  if (b.follow.events.length === 0) out.push('No new notices this run.');
  b.follow.events.forEach((e, i) => out.push(`${i + 1}. ${noticeHeadline(e)}`, `   ${e.notice_url}`, `   ${noticeDetail(e)}`));
  return [...out, '', ...after(b)];
}

/** `escapeHtml` and `safeHref` are the digest's own (bundle.ts), so both digests escape alike. */
export function followDigestHtml(b: Followed, escapeHtml: (s: string) => string, safeHref: (url: string | null) => string | null): string[] {
  const items = b.follow.events.map((e) => {
    const href = safeHref(e.notice_url);
    const link = href ? `<a href="${escapeHtml(href)}">${escapeHtml(e.notice_url)}</a>` : escapeHtml(e.notice_url);
    return `<li>${escapeHtml(noticeHeadline(e))}<br>notice ${link}<br><small>${escapeHtml(noticeDetail(e))}</small></li>`;
  });
  return [
    `<p>${escapeHtml(intro(b))}</p>`,
    items.length ? `<ol>${items.join('')}</ol>` : '<p>No new notices this run.</p>',
    ...after(b).map((l) => `<p>${escapeHtml(l)}</p>`),
  ];
}

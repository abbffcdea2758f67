/**
 * The selected-answer HTML export (spec 2, Exports): one static document, no
 * scripts, forms or active resources, every untrusted value escaped, no
 * interpreted Markdown or auto-linked URLs. Each citation links (fragment
 * anchors only) to its quote, and the quote to its position in the saved source
 * text. The CSP allows nothing to be fetched and only the authored CSS, by hash;
 * it is also carried in a <meta> so a saved copy opened from disk keeps it.
 */
import crypto from 'node:crypto';
import { CITATION_NOTICE, citationPlace, exportLimit, selectionLabel, unvalidatedText, validatedResult } from './export-snapshot.js';
import type { Citation, OutputItem } from './output-validate.js';
import type { AnswerView, RequestSource } from './types.js';

export const HTML_LIMITS = { documentBytes: 4_194_304, cssBytes: 65_536 } as const;
export const HTML_CONTRACT = 'selected-answer-html/v1';

export const CSS = [
  'body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;background:#fff}',
  'pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f5;padding:.6rem;border-radius:4px}',
  '.banner{border:2px solid #b00020;color:#b00020;padding:.5rem;font-weight:600}',
  '.meta{color:#555;font-size:.9em}',
  '.cite{display:inline-block;margin-right:.5rem}',
  'blockquote{margin:.3rem 0;border-left:3px solid #888;padding-left:.6rem}',
  'a.pos{display:inline-block;width:0}',
  ':target{outline:2px solid #3060c0}',
].join('\n');

const cssHash = () => `'sha256-${crypto.createHash('sha256').update(CSS, 'utf8').digest('base64')}'`;

/** Every fetch directive is none except style by the CSS hash; nothing navigates or submits. */
export function contentSecurityPolicy(forMeta = false): string {
  const none = ['default-src', 'script-src', 'script-src-elem', 'script-src-attr', 'style-src-attr', 'img-src', 'font-src', 'connect-src', 'media-src', 'object-src', 'frame-src', 'child-src', 'worker-src', 'manifest-src', 'fenced-frame-src'];
  const parts = [...none.map((d) => `${d} 'none'`), `style-src ${cssHash()}`, `style-src-elem ${cssHash()}`, "base-uri 'none'", "form-action 'none'"];
  if (!forMeta) parts.push("frame-ancestors 'none'");
  return parts.join('; ');
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESC[c]);
/** Ids we mint from validated source ids and counters only; never untrusted text. */
const SAFE_ID = /^[A-Za-z0-9-]+$/;
const anchor = (id: string) => {
  if (!SAFE_ID.test(id)) throw new Error('unsafe fragment id');
  return id;
};

interface Numbered extends Citation { n: number }

export function renderAnswerHtml(v: AnswerView): string {
  const result = validatedResult(v);
  const cited: Numbered[] = [];
  const body: string[] = [];
  body.push('<header>', '<h1>Selected answer</h1>');
  if (!result) body.push('<p class="banner">UNVALIDATED: this answer did not pass strict validation or did not finish. Nothing here is a validated result.</p>');
  const facts: [string, string][] = [
    ['Answer', v.answer_id], ['State', v.state], ['Mode', v.request.mode], ['Request SHA-256', v.request_sha256],
    ['Project', `${v.project_id} (revision ${v.request.project_revision})`], ['Vault', v.vault_id],
    ['Created', v.created_at_utc], ['Finished', v.finished_at_utc ?? 'not finished'],
  ];
  if (v.error) facts.push(['Error', `${v.error.reason}: ${v.error.message}`]);
  body.push('<dl class="meta">', ...facts.map(([k, val]) => `<dt>${k}</dt><dd>${escapeHtml(val)}</dd>`), '</dl>');
  body.push('<h2>Instruction</h2>', `<pre>${escapeHtml(v.request.instruction)}</pre>`, '</header>', '<main>');
  if (result) {
    body.push(`<p>Status: ${escapeHtml(result.status)}</p>`, `<p class="meta">${escapeHtml(CITATION_NOTICE)}</p>`);
    result.sections.forEach((sec, i) => {
      body.push(`<section id="${anchor(`section-${i + 1}`)}">`, `<h2>${escapeHtml(sec.kind)}${sec.title === undefined ? '' : `: ${escapeHtml(sec.title)}`}</h2>`);
      for (const item of sec.items) body.push(itemHtml(item, cited));
      body.push('</section>');
    });
    const lims = result.limitations.map((l) => `<li><pre>${escapeHtml(l)}</pre></li>`).join('');
    body.push('<section id="limitations"><h2>Limitations</h2>', lims === '' ? '<p>None stated.</p>' : `<ul>${lims}</ul>`, '</section>');
    body.push('<section id="citations"><h2>Citations</h2>');
    const sources = new Map(v.request.sources.map((src) => [src.source_id, src]));
    for (const c of cited) {
      body.push(`<div id="${anchor(`cite-${c.n}`)}"><p>[${c.n}] <a href="#${anchor(`pos-${c.n}`)}">${escapeHtml(citationPlace(c, sources.get(c.source_id)))}</a></p><blockquote><pre>${escapeHtml(c.quote)}</pre></blockquote></div>`);
    }
    body.push('</section>');
  } else {
    const text = unvalidatedText(v);
    body.push('<section id="unvalidated"><h2>Unvalidated output</h2>', text === null ? '<p>No model output was saved.</p>' : `<pre>${escapeHtml(text)}</pre>`, '</section>');
  }
  body.push('<section id="sources"><h2>Selected sources</h2>');
  for (const src of v.request.sources) body.push(sourceHtml(src, cited.filter((c) => c.source_id === src.source_id)));
  body.push('</section>', '<section id="notes"><h2>Selected notes</h2>');
  if (v.request.notes.length === 0) body.push('<p>None selected.</p>');
  for (const n of v.request.notes) {
    body.push(`<article><h3>Note ${escapeHtml(String(n.note_id))} (revision ${escapeHtml(String(n.note_revision))})</h3><p class="meta">file ${escapeHtml(n.file_id)}, version ${escapeHtml(n.version_id)}</p><pre>${escapeHtml(n.text)}</pre></article>`);
  }
  body.push('</section>', '</main>');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(true))}">`,
    '<meta name="referrer" content="no-referrer">',
    '<title>Selected answer</title>',
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function itemHtml(item: OutputItem, cited: Numbered[]): string {
  const parts = [`<article><h3>${escapeHtml(item.kind)}</h3><pre>${escapeHtml(item.text)}</pre>`];
  if ('citations' in item) {
    const links = item.citations.map((c) => {
      const n = cited.length + 1;
      cited.push({ ...c, n });
      return `<a class="cite" href="#${anchor(`cite-${n}`)}">[${n}] ${escapeHtml(c.source_id)}</a>`;
    });
    parts.push(`<p>${links.join(' ')}</p>`);
  }
  if ('note_ids' in item) parts.push(`<p class="meta">Notes: ${item.note_ids.map((id) => escapeHtml(String(id))).join(', ')}</p>`);
  parts.push('</article>');
  return parts.join('');
}

/** The saved text with a zero-width anchor at each cited start, so a citation jumps to its position. */
function sourceHtml(src: RequestSource, cites: Numbered[]): string {
  const cps = [...src.text];
  const at = new Map<number, number[]>();
  for (const c of cites) if (c.start <= cps.length) at.set(c.start, [...(at.get(c.start) ?? []), c.n]);
  const starts = [...at.keys()].sort((a, b) => a - b);
  let text = '';
  let prev = 0;
  for (const start of starts) {
    text += escapeHtml(cps.slice(prev, start).join(''));
    text += at.get(start)!.map((n) => `<a class="pos" id="${anchor(`pos-${n}`)}" href="#${anchor(`cite-${n}`)}"></a>`).join('');
    prev = start;
  }
  text += escapeHtml(cps.slice(prev).join(''));
  const id = SAFE_ID.test(src.source_id) ? ` id="${anchor(`source-${src.source_id}`)}"` : '';
  return [
    `<article${id}><h3>${escapeHtml(src.source_id)}: ${escapeHtml(src.filename)}</h3>`,
    `<p class="meta">${escapeHtml(selectionLabel(src))}; file ${escapeHtml(src.file_id)}, version ${escapeHtml(src.version_id)}; source SHA-256 ${escapeHtml(src.source_sha256)}</p>`,
    `<pre>${text}</pre></article>`,
  ].join('');
}

export interface HtmlExport { bytes: Buffer; headers: Record<string, string> }

/** The document and every header of the download; over 4,194,304 bytes is 413 export_limit before anything is sent. */
export function buildAnswerHtml(s: AnswerView): HtmlExport {
  const bytes = Buffer.from(renderAnswerHtml(s), 'utf8');
  if (bytes.length > HTML_LIMITS.documentBytes) throw exportLimit('html document', HTML_LIMITS.documentBytes);
  return {
    bytes,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-disposition': 'attachment; filename="selected-answer.html"',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': contentSecurityPolicy(),
      'referrer-policy': 'no-referrer',
      'x-svc-evidence-contract': HTML_CONTRACT,
      'x-svc-vault': s.vault_id,
      'x-svc-project': s.project_id,
      'x-svc-bundle': s.answer_id,
      'x-svc-version': s.request_sha256,
      'content-length': String(bytes.length),
      'x-svc-sha256': crypto.createHash('sha256').update(bytes).digest('hex'),
    },
  };
}

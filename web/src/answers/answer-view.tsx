/**
 * One saved answer as the service stored it. A validated result shows each
 * section and item, every citation a link that opens the reader at the
 * quoted passage (`?page=N&passage=<start>-<end>`, page codepoints, end
 * exclusive). Anything else is marked unvalidated: the text as saved, which
 * check failed and — when it was a citation — which one, with no links.
 */
import type { Answer, Citation, Item, Source } from '../api/answers.js';
import { reasonWords } from '../api/errors.js';
import { href } from '../router.js';
import { minute } from '../ui/format.js';

const SECTION_WORDS: Record<string, string> = { summary: 'Summary', details: 'Details', limitations: 'Limitations', questions: 'Questions' };
const ITEM_WORDS: Record<Item['kind'], string> = { source_statement: 'From the sources', interpretation: 'Interpretation', note_summary: 'From your notes', question: 'Question' };

const STATE_WORDS: Record<Answer['state'], string> = {
  admitted: 'admitted, waiting to start',
  running: 'being written',
  succeeded: 'succeeded',
  refused: 'refused',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted (svc stopped while it ran)',
};

/** Where a citation opens the reader: the source's page, the quote's range on that page. */
export function citationHref(projectId: string, source: Source, c: Citation): string {
  const start = source.start_codepoint + c.start;
  return href(`/evidence/${projectId}/files/${source.file_id}`, { page: source.page, passage: `${start}-${source.start_codepoint + c.end}` });
}

function ItemView({ item, projectId, sources }: { item: Item; projectId: string; sources: Map<string, Source> }) {
  return (
    <li class={`answer-item item-${item.kind}`}>
      <p>
        <span class="item-kind">{ITEM_WORDS[item.kind]}</span> {item.text}
      </p>
      {'citations' in item && (
        <ul class="citations">
          {item.citations.map((c, i) => {
            const s = sources.get(c.source_id);
            return (
              <li key={i}>
                {s ? (
                  <a class="citation" href={citationHref(projectId, s, c)}>
                    {c.source_id} · {s.filename}, page {s.page}
                  </a>
                ) : (
                  c.source_id
                )}{' '}
                <q class="quote-inline">{c.quote}</q>
              </li>
            );
          })}
        </ul>
      )}
      {'note_ids' in item && <p class="muted small">From notes {item.note_ids.join(', ')}</p>}
    </li>
  );
}

/** "…(at $.sections[0].items[1].citations[0].quote)" → that citation of the saved text, when it parses. */
function failedCitation(output: { text: string; detail: string }): { place: string; source_id?: string; quote?: string } | null {
  const m = /\$\.sections\[(\d+)\]\.items\[(\d+)\]\.citations\[(\d+)\]/.exec(output.detail);
  if (!m) return null;
  const [s, i, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const place = `citation ${c + 1} of item ${i + 1} in section ${s + 1}`;
  try {
    const cited = JSON.parse(output.text).sections[s].items[i].citations[c];
    return { place, source_id: String(cited.source_id), quote: String(cited.quote) };
  } catch {
    return { place };
  }
}

function Unvalidated({ answer }: { answer: Answer }) {
  const out = answer.output && !answer.output.validated ? answer.output : null;
  const cited = out ? failedCitation(out) : null;
  const text = out ? out.text : answer.partial_text;
  return (
    <div class="unvalidated" id="unvalidated">
      <p class="banner-unvalidated">
        <strong>Unvalidated.</strong> This answer did not pass svc's strict check{answer.state === 'succeeded' ? '' : ' or did not finish'}: nothing below is a validated result, and its citations are not links.
      </p>
      {out && (
        <p>
          Why: {reasonWords(out.reason)} — {out.detail}
        </p>
      )}
      {cited && (
        <p class="failed-citation">
          The citation that did not match: {cited.place}
          {cited.source_id && (
            <>
              , {cited.source_id} <q class="quote-inline">{cited.quote}</q>, which is not in that source's selected text
            </>
          )}
          .
        </p>
      )}
      {answer.error && (
        <p>
          {answer.error.message} <span class="muted">(svc's reason: {reasonWords(answer.error.reason)})</span>
        </p>
      )}
      <h3>The model's text as saved</h3>
      {text ? <pre class="quote-text">{text}</pre> : <p class="muted">No model text was saved.</p>}
    </div>
  );
}

export function AnswerView({ answer, projectId }: { answer: Answer; projectId: string }) {
  const sources = new Map(answer.request.sources.map((s) => [s.source_id, s]));
  const result = answer.output?.validated ? answer.output.result : null;
  return (
    <article class="answer" aria-labelledby="answer-title">
      <h2 id="answer-title">{answer.request.instruction}</h2>
      <dl class="facts">
        <dt>State</dt>
        <dd class={`state state-${answer.state}`}>{STATE_WORDS[answer.state]}</dd>
        <dt>Request SHA-256</dt>
        <dd>
          <code class="sha">{answer.request_sha256}</code>
        </dd>
        <dt>Asked</dt>
        <dd>
          {minute(answer.created_at_utc)} of {answer.request.choices.provider}, model {answer.request.choices.model ?? 'the default'}
          {answer.reported_model ? ` (the response said ${answer.reported_model.model})` : ''}
        </dd>
        <dt>Tokens</dt>
        <dd>{answer.usage.provenance === 'reported' ? `${answer.usage.input_tokens ?? '?'} in, ${answer.usage.output_tokens ?? '?'} out (as reported; billing unknown)` : 'not reported'}</dd>
      </dl>
      {result ? (
        result.status === 'insufficient_evidence' ? (
          <p class="note">The model said the selected evidence is not enough to answer.</p>
        ) : (
          result.sections.map((s, i) => (
            <section key={i} class="answer-section">
              <h3 class="section-kind">{s.title ?? SECTION_WORDS[s.kind] ?? reasonWords(s.kind)}</h3>
              <ul class="answer-items">
                {s.items.map((item, j) => (
                  <ItemView key={j} item={item} projectId={projectId} sources={sources} />
                ))}
              </ul>
            </section>
          ))
        )
      ) : (
        <Unvalidated answer={answer} />
      )}
      {result && result.limitations.length > 0 && (
        <>
          <h3>Limitations the model stated</h3>
          <ul>
            {result.limitations.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        </>
      )}
      {result && <p class="muted small">A citation proves only that the quoted text is in the selection, never that it supports the claim.</p>}
      <details class="answer-sources">
        <summary>The {answer.request.sources.length} selected sources</summary>
        <ol>
          {answer.request.sources.map((s) => (
            <li key={s.source_id}>
              <strong>{s.source_id}</strong> {s.filename}, page {s.page}
              <pre class="quote-text">{s.text}</pre>
            </li>
          ))}
        </ol>
      </details>
    </article>
  );
}

/**
 * A run's AI summary when one was asked for: the text marked as the model's
 * and unchecked (the service's caveat), who wrote it from how many papers —
 * or why none was written, in the service's words.
 */
import type { AiLane } from '../api/executions.js';

export function AiSummary({ lane }: { lane: AiLane }) {
  if (!lane.requested) return null;
  if (lane.used && lane.summary) {
    return (
      <section class="card ai-summary" aria-labelledby="ai-summary">
        <h2 id="ai-summary">AI summary</h2>
        <p class="ai-caveat">
          <span class="chip chip-warn">{lane.caveat ?? 'model-written, not checked against the papers'}</span> by {lane.provider ?? '?'} / {lane.model ?? '?'}, from{' '}
          {lane.documents_considered ?? 0} of {lane.documents_total ?? 0} papers{lane.instructions_given ? ', with your focus' : ''}
          {lane.on_request ? ', asked for after the run' : ''}. Numbers refer to the report's list.
        </p>
        <div class="ai-text">
          {lane.summary.split(/\n{2,}/).map((para, i) => (
            <p key={i}>{para}</p>
          ))}
        </div>
        {lane.summary_truncated && <p class="muted">The model's answer was longer and was cut.</p>}
      </section>
    );
  }
  const waiting = lane.state === 'pending' || lane.state === 'writing';
  return (
    <section class="card ai-summary" aria-labelledby="ai-summary">
      <h2 id="ai-summary">AI summary</h2>
      <p class={waiting ? 'muted' : ''}>{waiting ? (lane.state === 'writing' ? 'Being written…' : 'Written when the run settles.') : (lane.reason ?? 'No summary was written.')}</p>
    </section>
  );
}

/**
 * What the first page's answer says about how the papers were ranked, in the
 * service's words: semantic ranking unavailable (and why; keyword results
 * stand in), the model that ranked a semantic page and the papers it could not
 * rank, and a relevance ranking bounded to the most recently added matches,
 * with the way to rank every match.
 */
import type { SearchAnswer } from '../api/explorer.js';
import { reasonWords } from '../api/errors.js';
import { navigate } from '../router.js';
import { count } from '../ui/format.js';
import { stateHref, type ExploreState } from './state.js';

export function AnswerNotes({ answer, state }: { answer: SearchAnswer; state: ExploreState }) {
  const notes = [];
  if (answer.mode_unavailable) {
    notes.push(
      <div key="mode" class="note note-warn" role="status">
        <strong class="note-title">Matching by meaning is not available, so these papers match the words.</strong>
        <p>{answer.mode_unavailable.message}</p>
        <p class="note-reason">svc's reason: {reasonWords(answer.mode_unavailable.reason)}</p>
      </div>,
    );
  } else if (answer.mode === 'semantic') {
    notes.push(
      <p key="semantic" class="answer-line">
        Nearest in meaning first, by <strong>{answer.model}</strong>
        {answer.kind === 'lexical' && ' (a lexical model: it compares shared words, not meaning)'}.
        {(answer.unranked_count ?? 0) > 0 && ` ${count(answer.unranked_count!, 'matching paper')} without a vector for this model cannot be ranked and are not listed.`}
      </p>,
    );
  }
  if (answer.ranking && !answer.ranking.exhaustive && answer.ranking.message) {
    notes.push(
      <div key="ranking" class="note note-warn" role="status">
        <p>{answer.ranking.message}</p>
        <button type="button" class="quiet" onClick={() => navigate(stateHref({ ...state, exhaustive: true }))}>
          Rank every match (slower)
        </button>
      </div>,
    );
  }
  return notes.length ? <div class="answer-notes">{notes}</div> : null;
}

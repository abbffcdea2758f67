/**
 * Choose what the model may read: per pinned file its whole pages and saved
 * passages, the notes whose bodies go too, the instruction, the mode and the
 * connection — with counters against the service's selection limits. The
 * Preview button asks the service to assemble the exact request.
 */
import type { ComposerChoices } from '../api/assistant.js';
import type { Choices, Member, Note, SelectionLimits } from '../api/answers.js';
import { ChoicesPicker } from '../assistant/choices-picker.js';
import { FieldError } from '../ui/notes.js';
import { parsePages, type Chosen, type Counts } from './selection.js';

export interface Draft {
  chosen: Chosen;
  instruction: string;
  mode: 'answer' | 'briefing';
  choices: Choices;
}

const short = (sha: string) => sha.slice(0, 12);
const clip = (text: string, n = 90) => (text.length > n ? `${text.slice(0, n)}…` : text);

function Counter({ label, n, max }: { label: string; n: number; max: number }) {
  return (
    <li class={n > max ? 'counter over' : 'counter'}>
      <span class="counter-n">{n.toLocaleString()}</span> / {max.toLocaleString()} {label}
      {n > max && <span class="visually-hidden"> (over the limit)</span>}
    </li>
  );
}

export function Counters({ counts, instruction, limits }: { counts: Counts; instruction: string; limits: SelectionLimits }) {
  return (
    <ul class="counters" aria-label="What is selected, against svc's limits">
      <Counter label="files" n={counts.files} max={limits.memberships_max} />
      <Counter label="distinct pages" n={counts.pages} max={limits.distinct_pages} />
      <Counter label="segments" n={counts.segments} max={limits.segments} />
      <Counter label="notes" n={counts.notes} max={limits.notes} />
      <Counter label="instruction characters" n={[...instruction].length} max={limits.instruction_codepoints} />
    </ul>
  );
}

function FileChooser({ member, notes, draft, set, errors }: { member: Member; notes: Note[]; draft: Draft; set: (d: Draft) => void; errors: string[] }) {
  const c = draft.chosen.files[member.file_id] ?? { use: false, pages: '', passages: [] };
  const put = (next: Partial<typeof c>) => set({ ...draft, chosen: { ...draft.chosen, files: { ...draft.chosen.files, [member.file_id]: { ...c, ...next } } } });
  const passages = notes.filter((n) => n.anchor);
  const id = `file-${member.file_id}`;
  const pagesBad = c.use && parsePages(c.pages) === null;
  return (
    <fieldset class="answer-file" id={id} aria-describedby={`${id}-error`}>
      <legend>
        {member.original_name} <span class="muted mono">version {short(member.sha256)}</span>
      </legend>
      <label class="check">
        <input type="checkbox" checked={c.use} onChange={(e) => put({ use: (e.target as HTMLInputElement).checked })} /> Send from this file
      </label>
      <div class="field">
        <label for={`${id}-pages`}>Whole pages</label>
        <input id={`${id}-pages`} value={c.pages} inputMode="numeric" placeholder={member.format === 'pdf' ? 'e.g. 1, 3-4' : '1 (a text file is one page)'} onInput={(e) => put({ pages: (e.target as HTMLInputElement).value, use: true })} aria-describedby={`${id}-pages-error`} />
        <FieldError id={`${id}-pages-error`} messages={pagesBad ? ['Pages are numbers and ranges, such as 1, 3-4.'] : []} />
      </div>
      {passages.length > 0 && (
        <fieldset class="passages">
          <legend>Saved passages</legend>
          {passages.map((n) => (
            <label class="check" key={n.note_id}>
              <input
                type="checkbox"
                checked={c.passages.includes(n.note_id)}
                onChange={(e) => put({ use: true, passages: (e.target as HTMLInputElement).checked ? [...c.passages, n.note_id] : c.passages.filter((x) => x !== n.note_id) })}
              />{' '}
              page {n.anchor!.page}, characters {n.anchor!.start}–{n.anchor!.end}: “{clip(n.anchor!.quote)}”
            </label>
          ))}
        </fieldset>
      )}
      <FieldError id={`${id}-error`} messages={errors} />
    </fieldset>
  );
}

export function Chooser(props: {
  members: Member[];
  notes: Note[];
  composer: ComposerChoices;
  draft: Draft;
  set: (d: Draft) => void;
  errors: Record<string, string[]>;
}) {
  const { members, notes, composer, draft, set, errors } = props;
  const err = (k: string) => errors[k] ?? [];
  const toggleNote = (id: number, on: boolean) => set({ ...draft, chosen: { ...draft.chosen, noteIds: on ? [...draft.chosen.noteIds, id] : draft.chosen.noteIds.filter((x) => x !== id) } });
  const withBody = notes.filter((n) => n.body.trim() !== '');
  return (
    <div class="answer-chooser">
      <h2>What the model may read</h2>
      {members.map((m) => (
        <FileChooser key={m.file_id} member={m} notes={notes.filter((n) => n.file_id === m.file_id && n.version_id === m.version_id)} draft={draft} set={set} errors={err(`file:${m.file_id}`)} />
      ))}
      <fieldset class="answer-notes" aria-describedby="answer-notes-error">
        <legend>Notes to send (their bodies; none unless ticked)</legend>
        {withBody.length === 0 ? (
          <p class="muted">No saved note has a body. Notes are written in the reader.</p>
        ) : (
          withBody.map((n) => (
            <label class="check" key={n.note_id}>
              <input type="checkbox" checked={draft.chosen.noteIds.includes(n.note_id)} onChange={(e) => toggleNote(n.note_id, (e.target as HTMLInputElement).checked)} /> Note {n.note_id}
              {n.anchor ? ` (page ${n.anchor.page})` : ''}: {clip(n.body)}
            </label>
          ))
        )}
        <FieldError id="answer-notes-error" messages={err('notes')} />
      </fieldset>
      <div class="field">
        <label for="answer-instruction">Instruction</label>
        <textarea id="answer-instruction" rows={3} value={draft.instruction} onInput={(e) => set({ ...draft, instruction: (e.target as HTMLTextAreaElement).value })} aria-describedby="answer-instruction-error" />
        <FieldError id="answer-instruction-error" messages={err('instruction')} />
      </div>
      <fieldset class="inline-choice">
        <legend>Output</legend>
        <label class="check">
          <input type="radio" name="answer-mode" checked={draft.mode === 'answer'} onChange={() => set({ ...draft, mode: 'answer' })} /> An answer
        </label>
        <label class="check">
          <input type="radio" name="answer-mode" checked={draft.mode === 'briefing'} onChange={() => set({ ...draft, mode: 'briefing' })} /> A briefing
        </label>
      </fieldset>
      <ChoicesPicker id="answer-choices" composer={composer} value={draft.choices} onChange={(choices) => set({ ...draft, choices })} errors={{ connection: err('connection'), model: err('model'), effort: err('effort') }} />
    </div>
  );
}

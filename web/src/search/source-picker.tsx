/**
 * The sources a dive or sweep can ask, as the service offers them: those it
 * can ask now first, then those it cannot, disabled, each with the service's
 * sentence (a missing key, a retired service, a date window it needs or
 * cannot take). A chosen source that cannot be asked stays visible with why.
 */
import type { Repository, SearchRepository } from '../api/types.js';
import { reasonWords } from '../api/errors.js';
import { FieldError } from '../ui/notes.js';
import type { Mode } from './form.js';

export type Offer = SearchRepository & { catalog?: Repository };

const WINDOW_WORDS: Record<string, string> = {
  year: 'dates by whole year',
  required: 'needs dates',
  none: 'no date filter',
};

function Chips({ offer }: { offer: Offer }) {
  const window = offer.catalog?.capabilities?.date_window;
  return (
    <span class="source-chips">
      {window && WINDOW_WORDS[window] && <span class="chip">{WINDOW_WORDS[window]}</span>}
      {offer.key_status === 'present' && <span class="chip chip-ok">key stored</span>}
    </span>
  );
}

interface PickerProps {
  mode: Mode;
  offers: Offer[];
  selected: string[];
  onChange: (selected: string[]) => void;
  errors: string[];
}

function Option({ offer, mode, checked, onToggle }: { offer: Offer; mode: Mode; checked: boolean; onToggle: (id: string, on: boolean) => void }) {
  const id = `source-${offer.id}`;
  const why = `${id}-why`;
  return (
    <li class={offer.searchable ? 'source-option' : 'source-option blocked'}>
      <input
        id={id}
        type={mode === 'dive' ? 'radio' : 'checkbox'}
        name="source"
        value={offer.id}
        checked={checked}
        disabled={!offer.searchable}
        aria-describedby={offer.searchable ? undefined : why}
        onChange={(e) => onToggle(offer.id, (e.target as HTMLInputElement).checked)}
      />
      <label for={id}>
        <span class="source-name">{offer.name}</span> <span class="source-id">{offer.id}</span>
        <Chips offer={offer} />
      </label>
      {offer.searchable ? (
        offer.catalog?.description && <p class="source-desc">{offer.catalog.description}</p>
      ) : (
        <p class="source-why" id={why}>
          {checked && <strong>Chosen, but it cannot be asked now: </strong>}
          {offer.message ?? reasonWords(offer.reason ?? 'unavailable')}
        </p>
      )}
    </li>
  );
}

export function SourcePicker({ mode, offers, selected, onChange, errors }: PickerProps) {
  const ready = offers.filter((o) => o.searchable);
  const blocked = offers.filter((o) => !o.searchable);
  const toggle = (id: string, on: boolean) => {
    if (mode === 'dive') onChange(on ? [id] : []);
    else onChange(on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id));
  };
  const chosenBlocked = blocked.filter((o) => selected.includes(o.id));
  return (
    <fieldset class="sources" aria-describedby={errors.length ? 'sources-error' : undefined}>
      <legend>{mode === 'dive' ? 'Source' : 'Sources'}</legend>
      {mode === 'sweep' && (
        <p class="source-tools">
          <button type="button" class="quiet" onClick={() => onChange([...new Set([...selected, ...ready.map((o) => o.id)])])}>
            Choose every source that can be asked
          </button>
          <button type="button" class="quiet" onClick={() => onChange([])} disabled={selected.length === 0}>
            Clear
          </button>
          <span class="muted" aria-live="polite">
            {selected.filter((id) => ready.some((o) => o.id === id)).length} chosen
          </span>
        </p>
      )}
      <FieldError id="sources-error" messages={errors} />
      <ul class="source-list">
        {ready.map((offer) => (
          <Option key={offer.id} offer={offer} mode={mode} checked={selected.includes(offer.id)} onToggle={toggle} />
        ))}
      </ul>
      {blocked.length > 0 && (
        <details class="sources-blocked" open={chosenBlocked.length > 0}>
          <summary>
            {blocked.length} {blocked.length === 1 ? 'source cannot' : 'sources cannot'} be asked now
            {chosenBlocked.length > 0 && `, ${chosenBlocked.length} of them chosen`}
          </summary>
          <ul class="source-list">
            {blocked.map((offer) => (
              <Option key={offer.id} offer={offer} mode={mode} checked={selected.includes(offer.id)} onToggle={toggle} />
            ))}
          </ul>
        </details>
      )}
    </fieldset>
  );
}

/**
 * Import profiles from a file another svc exported (one exported profile, or a
 * list): the file is read in the page and sent as POST /api/profiles/import.
 * The service checks every item before storing any; its refusals name the
 * item and the field, and a profile whose ORCID is already followed is
 * reported as skipped, in its words.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api/errors.js';
import { profiles, type ImportAnswer } from '../api/profiles.js';
import { ErrorNote } from '../ui/notes.js';

/** ["body", "profiles", 2, "orcid"] → "Profile 3, orcid". */
function where(loc: (string | number)[]): string {
  const [, , index, ...rest] = loc;
  return typeof index === 'number' ? `Profile ${index + 1}${rest.length ? `, ${rest.join('.')}` : ''}` : loc.slice(1).join('.');
}

export function ImportProfiles({ onImported }: { onImported: () => void }) {
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function choose(event: Event) {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setError(null);
    setAnswer(null);
    try {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await file.text());
      } catch {
        throw new Error(`${file.name} is not a JSON file; choose a file svc exported (Export on a profile).`);
      }
      setAnswer(await profiles.import(parsed));
      onImported();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      input.value = '';
    }
  }
  const items = error instanceof ApiError && error.status === 422 ? error.items : [];
  return (
    <section class="card" aria-labelledby="import-profiles">
      <h2 id="import-profiles">Import</h2>
      <p class="muted">A file exported from svc (one profile, or a list). Nothing is stored unless every profile in it is accepted.</p>
      <div class="field">
        <label for="import-file">Profiles file</label>
        <input id="import-file" type="file" accept="application/json,.json" onChange={choose} disabled={busy} />
      </div>
      {answer && (
        <div class="note note-ok" role="status">
          <p>
            Imported {answer.imported} {answer.imported === 1 ? 'profile' : 'profiles'}
            {answer.skipped.length > 0 && `, skipped ${answer.skipped.length}`}.
          </p>
          {answer.skipped.map((s) => (
            <p key={s.index}>
              Profile {s.index + 1}: {s.reason}.
            </p>
          ))}
        </div>
      )}
      {items.length > 0 ? (
        <div class="note note-error" role="alert">
          <strong class="note-title">Nothing was imported.</strong>
          {items.map((i) => (
            <p key={i.loc.join('.')}>
              {where(i.loc)}: {i.msg}
            </p>
          ))}
        </div>
      ) : (
        <ErrorNote error={error} title="Nothing was imported." />
      )}
    </section>
  );
}

/** The run's papers as references, in every format the service writes, saved through a Blob (the token never in a link). */
import { useState } from 'preact/hooks';
import { REFERENCE_FORMATS, runs, type ReferenceFormat } from '../api/executions.js';
import { ErrorNote } from '../ui/notes.js';

const LABEL: Record<ReferenceFormat, string> = { bibtex: 'BibTeX', ris: 'RIS', csv: 'CSV', json: 'JSON' };

export function ReferenceDownloads({ id, disabled }: { id: number; disabled: boolean }) {
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const save = async (format: ReferenceFormat) => {
    setError(null);
    try {
      setSaved(await runs.downloadReferences(id, format));
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div class="downloads" role="group" aria-label="Save the references">
      <span class="downloads-label">References:</span>
      {REFERENCE_FORMATS.map((format) => (
        <button key={format} type="button" class="quiet" disabled={disabled} onClick={() => save(format)}>
          {LABEL[format]}
        </button>
      ))}
      <span class="muted" role="status">
        {saved && `Saved ${saved}.`}
      </span>
      <ErrorNote error={error} title="The references were not saved." />
    </div>
  );
}

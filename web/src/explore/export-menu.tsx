/**
 * Export every paper matching the filters (not only the rows loaded) in any
 * reference format, saved through a Blob so the token never enters a URL. A
 * refusal (too many papers, say) is shown in the service's words.
 */
import { useState } from 'preact/hooks';
import { EXPORT_FORMATS, explorer, type ExplorerFilters } from '../api/explorer.js';
import { ErrorNote } from '../ui/notes.js';

export function ExportMenu({ filters, total }: { filters: ExplorerFilters; total: number | undefined }) {
  const [format, setFormat] = useState<string>(EXPORT_FORMATS[0].id);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  async function run(event: Event) {
    event.preventDefault();
    const chosen = EXPORT_FORMATS.find((f) => f.id === format)!;
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      setSaved(await explorer.export(filters, chosen));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const what = total === undefined ? ' all matching' : total === 0 ? '' : total === 1 ? ' the matching paper' : ` all ${total.toLocaleString()}`;
  return (
    <form class="export-menu" onSubmit={run}>
      <label for="export-format">Export</label>
      <select id="export-format" value={format} onChange={(e) => setFormat((e.target as HTMLSelectElement).value)}>
        {EXPORT_FORMATS.map((f) => (
          <option key={f.id} value={f.id}>
            {f.label}
          </option>
        ))}
      </select>
      <button type="submit" class="quiet" disabled={busy || total === 0}>
        {busy ? 'Exporting…' : `Export${what}`}
      </button>
      {saved && (
        <span class="export-saved" role="status">
          Saved {saved}
        </span>
      )}
      <ErrorNote error={error} title="The export was refused." />
    </form>
  );
}

/**
 * A write-only key field for one credential: its status from the service
 * (stored, not stored, unreadable), a password field to store or replace it,
 * a check of the key just typed against its provider (only for keys the
 * service says it can check), and erase. The typed value lives in this
 * component's state until it is stored, then it is dropped: the field is
 * emptied, and nothing — the page, the DOM, sessionStorage — holds it again.
 */
import { useState } from 'preact/hooks';
import { credentials, type CredentialRow, type KeyCheck } from '../api/credentials.js';
import { ErrorNote } from '../ui/notes.js';

const STATUS_WORDS: Record<CredentialRow['status'], string> = { present: 'stored', absent: 'not stored', unreadable: 'unreadable' };
const STATUS_CHIP: Record<CredentialRow['status'], string> = { present: 'chip chip-ok', absent: 'chip', unreadable: 'chip chip-danger' };

export function KeyField({ row, onChanged }: { row: CredentialRow; onChanged: (row: CredentialRow) => void }) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState<'store' | 'check' | 'erase' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [check, setCheck] = useState<KeyCheck | null>(null);
  const [said, setSaid] = useState('');
  const id = `key-${row.name}`;

  async function act(kind: 'store' | 'check' | 'erase') {
    setBusy(kind);
    setError(null);
    setSaid('');
    if (kind !== 'check') setCheck(null);
    try {
      if (kind === 'check') setCheck(await credentials.validate(row.validate_provider!, value));
      else if (kind === 'store') {
        const answer = await credentials.store(row.name, value);
        setValue('');
        setCheck(null);
        setSaid('Stored. svc never shows a key again; type a new one to replace it.');
        onChanged({ ...row, status: answer.status });
      } else {
        const answer = await credentials.erase(row.name);
        setSaid('Erased.');
        onChanged({ ...row, status: answer.status });
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  const submit = (event: Event) => {
    event.preventDefault();
    if (value) void act('store');
  };
  return (
    <form class="key-field" onSubmit={submit} noValidate aria-label={row.label}>
      <div class="key-head">
        <label for={id}>{row.label}</label>
        <span class={STATUS_CHIP[row.status]}>{STATUS_WORDS[row.status]}</span>
      </div>
      <div class="inline-form">
        <input
          id={id}
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={value}
          placeholder={row.status === 'present' ? 'Type a new key to replace the stored one' : 'Paste the key'}
          aria-describedby={`${id}-said`}
          onInput={(e) => {
            setValue((e.target as HTMLInputElement).value);
            setCheck(null);
          }}
        />
        <button type="submit" disabled={!value || busy !== null}>
          {busy === 'store' ? 'Storing…' : row.status === 'present' ? 'Replace' : 'Store'}
        </button>
        {row.validate_provider && (
          <button type="button" class="quiet" disabled={!value || busy !== null} onClick={() => act('check')}>
            {busy === 'check' ? 'Checking…' : 'Check with the provider'}
          </button>
        )}
        {row.status !== 'absent' && (
          <button type="button" class="danger" disabled={busy !== null} onClick={() => act('erase')}>
            Erase
          </button>
        )}
      </div>
      <p id={`${id}-said`} class="muted" role="status">
        {said}
        {check && <span class={check.valid ? 'key-check ok' : 'key-check bad'}>{check.message}{!check.valid && ` (${check.status})`}</span>}
      </p>
      <ErrorNote error={error} />
    </form>
  );
}

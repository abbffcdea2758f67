/**
 * Sources and keys: every source of the catalog with its state as the service
 * answers it (ready, needs a key, dates required, retired), a write-only key
 * field beside each source that takes one, the other keys svc keeps (AI,
 * mail, cloud), and the contact e-mail for the polite pools.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { credentials, type CredentialRow } from '../api/credentials.js';
import type { Catalog, Repository, SearchRepositories, SearchRepository, SettingsGroup } from '../api/types.js';
import { ContactEmail } from '../setup/contact-email.js';
import { KeyField } from '../setup/key-field.js';
import { stateOf, STATE_ORDER, type SourceState } from '../sources/state.js';
import { count } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

const KIND_TITLES: Record<string, string> = { ai: 'AI providers', email: 'Mail server', cloud: 'Cloud backup' };

function SourceCard({ entry, state, keyRow, onKey }: { entry: Repository; state: SourceState; keyRow?: CredentialRow; onKey: (row: CredentialRow) => void }) {
  const rateWithKey = entry.capabilities?.rate_limit_with_key;
  return (
    <li class="source-card" data-source={entry.id}>
      <div class="source-card-head">
        <h3>
          {entry.name} <span class="source-id">{entry.id}</span>
        </h3>
        <span class={state.chip}>{state.label}</span>
      </div>
      <p class="source-desc">{entry.description}</p>
      {state.message && <p class="source-why">{state.message}</p>}
      {keyRow && (
        <>
          {entry.credential && !entry.credential.required && (
            <p class="muted">A key is optional here{rateWithKey ? `: with one, svc may ask ${rateWithKey.requests} times per ${rateWithKey.interval_ms / 1000} s` : ''}.</p>
          )}
          <KeyField row={keyRow} onChanged={onKey} />
        </>
      )}
    </li>
  );
}

export default function Sources() {
  const catalog = useResource((signal) => api.get<Catalog>('/api/repositories/catalog', { signal }), []);
  const offered = useResource((signal) => api.get<SearchRepositories>('/api/search/repositories', { signal }), []);
  const keys = useResource((signal) => credentials.list(signal), []);
  const email = useResource((signal) => api.get<SettingsGroup<{ contact_email: string }>>('/api/settings/email', { signal }), []);
  const [rows, setRows] = useState<CredentialRow[]>([]);
  useEffect(() => setRows(keys.data?.credentials ?? []), [keys.data]);

  const onKey = (row: CredentialRow) => {
    setRows((all) => all.map((r) => (r.name === row.name ? row : r)));
    offered.reload(); // a stored key can make a source ready
  };
  const offers = new Map<string, SearchRepository>((offered.data?.repositories ?? []).map((r) => [r.id, r]));
  const entries = (catalog.data?.repositories ?? []).map((entry) => ({ entry, state: stateOf(entry, offers.get(entry.id)) }));
  entries.sort((a, b) => STATE_ORDER.indexOf(a.state.id) - STATE_ORDER.indexOf(b.state.id));
  const byName = new Map(rows.map((r) => [r.name, r]));
  const sourceKeys = new Set(entries.map((e) => e.entry.credential?.name).filter(Boolean));
  const otherKeys = rows.filter((r) => !sourceKeys.has(r.name));
  const tally = STATE_ORDER.map((id) => [id, entries.filter((e) => e.state.id === id)] as const).filter(([, list]) => list.length > 0);

  return (
    <>
      <header class="page-header">
        <h1>Sources and keys</h1>
        <p class="lede">Which sources svc can ask now, the keys some of them need, and the address the polite pools ask for. A key is stored once and never shown again.</p>
      </header>
      <ErrorNote error={catalog.error ?? offered.error ?? keys.error} title="svc could not say which sources it has." />
      <section class="card" aria-labelledby="contact">
        <h2 id="contact">Contact e-mail</h2>
        <p class="muted">Crossref, OpenAlex and NCBI serve requests that name a contact address from their faster, politer pools. svc sends it with every request to them.</p>
        {email.data ? <ContactEmail key={email.data.settings.contact_email} current={email.data.settings.contact_email} onSaved={() => email.reload()} /> : email.loading ? <Busy /> : <ErrorNote error={email.error} />}
      </section>
      <section aria-labelledby="catalog">
        <h2 id="catalog">Sources</h2>
        {catalog.loading && !catalog.data && <Busy label="Reading the catalog…" />}
        {catalog.data && entries.length === 0 && (
          <EmptyState title="svc's catalog lists no source.">
            <p>This build of svc has no source adapters; reinstall it.</p>
          </EmptyState>
        )}
        {tally.length > 0 && <p class="muted">{tally.map(([id, list]) => `${count(list.length, 'source')} ${list[0]!.state.label}`).join(' · ')}</p>}
        <ul class="source-cards">
          {entries.map(({ entry, state }) => (
            <SourceCard key={entry.id} entry={entry} state={state} keyRow={entry.credential ? byName.get(entry.credential.name) : undefined} onKey={onKey} />
          ))}
        </ul>
      </section>
      {otherKeys.length > 0 && (
        <section aria-labelledby="other-keys">
          <h2 id="other-keys">Other keys</h2>
          <p class="muted">Keys of AI providers, the mail server's password and the cloud backup's password. An AI key can be checked with its provider before it is stored.</p>
          {Object.entries(KIND_TITLES).map(([kind, title]) => {
            const list = otherKeys.filter((r) => r.kind === kind);
            if (list.length === 0) return null;
            return (
              <div class="card key-group" key={kind}>
                <h3>{title}</h3>
                {list.map((row) => (
                  <KeyField key={row.name} row={row} onChanged={onKey} />
                ))}
              </div>
            );
          })}
        </section>
      )}
    </>
  );
}

/**
 * Home and first run: what the backend is, the onboarding card's steps with
 * the one the window can do in place (the contact e-mail for the polite
 * pools), and which sources can be searched now — all as the service says.
 */
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { Health, Onboarding, SearchRepositories } from '../api/types.js';
import { session } from '../session.js';
import { href } from '../router.js';
import { ContactEmail } from '../setup/contact-email.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

/** The page of the window where each step is done (the service's hint names the CLI command instead). */
const STEP_PAGES: Record<string, { href: string; label: string }> = {
  repository_keys: { href: '/sources', label: 'Store keys on the Sources page' },
  ai_provider: { href: '/settings?tab=ai', label: 'Choose one in Settings' },
  email_delivery: { href: '/settings?tab=email', label: 'Set up the mail server in Settings' },
};

const STEP_TITLES: Record<string, string> = {
  contact_email: 'Give a contact e-mail',
  repository_keys: 'Store keys for the sources that need one',
  ai_provider: 'Choose an AI provider for summaries',
  email_delivery: 'Set up e-mail delivery of reports',
};

function Steps({ onboarding, reload }: { onboarding: Onboarding; reload: () => void }) {
  const [dismissError, setDismissError] = useState<unknown>(null);
  async function dismiss() {
    try {
      await api.post('/api/onboarding/dismiss');
      reload();
    } catch (err) {
      setDismissError(err);
    }
  }
  return (
    <section class="card" aria-labelledby="first-steps">
      <h2 id="first-steps">First steps</h2>
      <ol class="steps">
        {onboarding.steps.map((step) => (
          <li key={step.id} class={step.done ? 'step done' : 'step'}>
            <span class="step-mark" aria-hidden="true">
              {step.done ? '✓' : '○'}
            </span>
            <div>
              <p class="step-title">
                {STEP_TITLES[step.id] ?? step.id.replace(/_/g, ' ')}
                {step.done && <span class="visually-hidden"> (done)</span>}
              </p>
              {!step.done && step.id === 'contact_email' ? (
                <>
                  <p class="muted">Crossref, OpenAlex and NCBI serve requests that name a contact address from their faster, politer pools.</p>
                  <ContactEmail onSaved={reload} />
                </>
              ) : (
                !step.done &&
                (STEP_PAGES[step.id] ? (
                  <p>
                    <a href={STEP_PAGES[step.id]!.href}>{STEP_PAGES[step.id]!.label}</a>
                  </p>
                ) : (
                  <p class="muted">{step.hint}</p>
                ))
              )}
            </div>
          </li>
        ))}
      </ol>
      <button type="button" class="quiet" onClick={dismiss}>
        Put this card away
      </button>
      <ErrorNote error={dismissError} />
    </section>
  );
}

function Sources({ list }: { list: SearchRepositories }) {
  const ready = list.repositories.filter((r) => r.searchable);
  const not = list.repositories.filter((r) => !r.searchable);
  return (
    <section class="card" aria-labelledby="sources-now">
      <h2 id="sources-now">What can be searched now</h2>
      <p>
        <strong>{ready.length}</strong> of {list.repositories.length} sources are ready: {ready.map((r) => r.name).join(', ')}.
      </p>
      {not.length > 0 && (
        <ul class="plain-list">
          {not.map((r) => (
            <li key={r.id}>
              <strong>{r.name}</strong>: {r.message ?? r.reason?.replace(/_/g, ' ')}
            </li>
          ))}
        </ul>
      )}
      <p>
        <a class="button" href={href('/search', { mode: 'dive', source: ready[0]?.id })}>
          Start a first dive
        </a>
      </p>
    </section>
  );
}

function Backend({ health }: { health: Health }) {
  const role = session.value?.role;
  return (
    <section class="card" aria-labelledby="backend">
      <h2 id="backend">Backend</h2>
      <dl class="facts">
        <dt>Attached to</dt>
        <dd>{role === 'daemon' ? 'the background daemon' : role === 'fallback' ? 'a backend the window started (no scheduler)' : 'a server'}</dd>
        <dt>Address</dt>
        <dd>{session.value?.baseUrl}</dd>
        <dt>Version</dt>
        <dd>{health.version}</dd>
        <dt>Schema</dt>
        <dd>{health.schema_version ?? 'unknown'}</dd>
        <dt>Scheduler</dt>
        <dd>{health.scheduler.state}</dd>
        <dt>Runtime id</dt>
        <dd>
          <code>{health.identity.runtime_id}</code>
        </dd>
      </dl>
    </section>
  );
}

export default function Home() {
  const onboarding = useResource((signal) => api.get<Onboarding>('/api/onboarding', { signal }), []);
  const health = useResource((signal) => api.get<Health>('/api/health', { signal }), []);
  const sources = useResource((signal) => api.get<SearchRepositories>('/api/search/repositories', { signal }), []);
  return (
    <>
      <header class="page-header">
        <h1>{onboarding.data?.show_card ? 'Welcome to svc' : 'Home'}</h1>
        <p class="lede">Search scholarly repositories, keep one deduplicated corpus, and follow what is new.</p>
      </header>
      <ErrorNote error={onboarding.error ?? health.error ?? sources.error} title="svc could not be asked." />
      <div class="cards">
        {onboarding.data?.show_card && <Steps onboarding={onboarding.data} reload={onboarding.reload} />}
        {sources.data ? <Sources list={sources.data} /> : sources.loading && <Busy />}
        {health.data && <Backend health={health.data} />}
      </div>
    </>
  );
}

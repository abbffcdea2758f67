/**
 * Search: start a dive (one source) or a sweep (several) with every option the
 * CLI has. Which sources can be asked, and why not, is the service's answer
 * for the window being typed; a refusal is placed beside its field by `loc`;
 * a started run opens its own page, where its progress comes in live.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { runs } from '../api/executions.js';
import type { Catalog, ConfigurationList, SearchRepositories } from '../api/types.js';
import { navigate, place } from '../router.js';
import { count } from '../ui/format.js';
import { Busy, ErrorNote, FieldError } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { AiFields, type AiSettings } from '../search/ai-fields.js';
import { ConfigurationPicker, SaveConfiguration } from '../search/configurations.js';
import { formFromParameters, formFromQuery, placeItems, requestBody, type FieldId, type Mode, type SearchForm } from '../search/form.js';
import { SourcePicker, type Offer } from '../search/source-picker.js';

const FIELD_OF_KEY: Record<keyof SearchForm, FieldId> = {
  mode: 'sources',
  query: 'query',
  sources: 'sources',
  dateFrom: 'date_from',
  dateTo: 'date_to',
  maxResults: 'max_results',
  keywords: 'keywords',
  ai: 'ai',
  aiModel: 'ai_model',
  aiInstructions: 'ai_instructions',
  configId: 'config',
};

function ModeSwitch({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  return (
    <fieldset class="mode-switch">
      <legend class="visually-hidden">Kind of search</legend>
      {(
        [
          ['dive', 'Dive', 'one source, deeply'],
          ['sweep', 'Sweep', 'several sources at once'],
        ] as const
      ).map(([value, label, hint]) => (
        <label key={value} class={mode === value ? 'mode on' : 'mode'}>
          <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => onChange(value)} />
          <span class="mode-label">{label}</span>
          <span class="mode-hint">{hint}</span>
        </label>
      ))}
    </fieldset>
  );
}

function TextField(props: { id: FieldId; label: string; value: string; onInput: (v: string) => void; errors?: string[]; hint?: string; type?: 'text' | 'date' | 'number'; placeholder?: string; search?: boolean }) {
  const { id, label, value, onInput, errors = [], hint, type = 'text', placeholder, search } = props;
  const described = [hint ? `${id}-hint` : '', errors.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={id}
        // preact types an input's attributes per type; these three share every attribute used here.
        type={type as 'text'}
        value={value}
        placeholder={placeholder}
        data-search-field={search ? '' : undefined}
        aria-invalid={errors.length > 0}
        aria-describedby={described}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
      />
      {hint && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}

export default function Search() {
  const queryText = place.value.query.toString();
  const [form, setForm] = useState<SearchForm>(() => formFromQuery(place.value.query));
  useEffect(() => setForm(formFromQuery(place.value.query)), [queryText]);
  const [refusal, setRefusal] = useState<unknown>(null);
  // A field changed since the refusal no longer shows the refusal's words for it.
  const [edited, setEdited] = useState<FieldId[]>([]);
  const set = (patch: Partial<SearchForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setEdited((e) => [...e, ...Object.keys(patch).map((k) => FIELD_OF_KEY[k as keyof SearchForm])]);
  };
  const [submitting, setSubmitting] = useState(false);

  const windowGiven = Boolean(form.dateFrom || form.dateTo);
  const offered = useResource((signal) => api.get<SearchRepositories>('/api/search/repositories', { signal, query: { window: windowGiven ? 'given' : 'none' } }), [windowGiven]);
  const catalog = useResource((signal) => api.get<Catalog>('/api/repositories/catalog', { signal }), []);
  const configurations = useResource((signal) => api.get<ConfigurationList>('/api/configurations', { signal }), []);
  const aiSettings = useResource((signal) => api.get<AiSettings>('/api/settings/ai', { signal }), []);

  // /search?config=<id> starts from that saved configuration once the list is read.
  const linkedConfig = Number(place.value.query.get('config')) || null;
  useEffect(() => {
    const config = configurations.data?.configurations.find((c) => c.id === linkedConfig && (c.config_type === 'dive' || c.config_type === 'sweep'));
    if (config) setForm(formFromParameters(config.config_type as Mode, config.parameters, config.id));
  }, [configurations.data, linkedConfig]);

  const offers: Offer[] = useMemo(() => {
    const byId = new Map((catalog.data?.repositories ?? []).map((r) => [r.id, r]));
    return (offered.data?.repositories ?? []).map((r) => ({ ...r, catalog: byId.get(r.id) }));
  }, [offered.data, catalog.data]);
  const askable = new Set(offers.filter((o) => o.searchable).map((o) => o.id));
  // A dive asks its one chosen source; a sweep asks the chosen sources the service can ask now (the others are listed with why).
  const sending = form.mode === 'dive' ? form.sources.slice(0, 1) : form.sources.filter((id) => askable.has(id));
  const blockedDive = form.mode === 'dive' && sending.length === 1 && offers.length > 0 && !askable.has(sending[0]!) ? offers.find((o) => o.id === sending[0]) : undefined;

  // A refusal placed beside a field takes the focus there (it may be below the fold).
  useEffect(() => {
    if (refusal) document.querySelector<HTMLElement>('.search-form [aria-invalid="true"]')?.focus();
  }, [refusal]);
  const placed = refusal instanceof ApiError && refusal.status === 422 ? placeItems(refusal.items) : null;
  const errors = Object.fromEntries(Object.entries(placed?.byField ?? {}).filter(([field]) => !edited.includes(field as FieldId))) as Partial<Record<FieldId, string[]>>;

  const parameters = () => {
    const { request_id: _id, saved_configuration_id: _config, ...rest } = requestBody(form, sending, '');
    return rest;
  };

  async function submit(event: Event) {
    event.preventDefault();
    setSubmitting(true);
    setRefusal(null);
    setEdited([]);
    try {
      const started = await runs.start(form.mode, requestBody(form, sending, crypto.randomUUID()));
      navigate(`/runs/${started.id}`);
    } catch (err) {
      setRefusal(err);
      setSubmitting(false);
    }
  }

  const changeMode = (mode: Mode) => set({ mode, sources: mode === 'dive' ? form.sources.slice(0, 1) : form.sources });
  const nothingChosen = sending.length === 0;

  return (
    <>
      <header class="page-header">
        <h1>Search</h1>
        <p class="lede">Ask scholarly sources now. Every paper found joins the corpus once, with the sources that found it.</p>
      </header>
      <ErrorNote error={offered.error ?? catalog.error} title="svc could not say which sources can be asked." />
      <form class="search-form" onSubmit={submit} noValidate aria-label="New search">
        <ModeSwitch mode={form.mode} onChange={changeMode} />
        <TextField id="query" label="Query" value={form.query} onInput={(query) => set({ query })} errors={errors.query} search placeholder="e.g. soil microbiome drought" />
        {configurations.data && <ConfigurationPicker list={configurations.data.configurations} form={form} onPick={setForm} errors={errors.config ?? []} />}
        {offers.length ? (
          <SourcePicker mode={form.mode} offers={offers} selected={form.sources} onChange={(sources) => set({ sources })} errors={errors.sources ?? []} />
        ) : (
          offered.loading && <Busy label="Asking svc which sources can be searched…" />
        )}
        <fieldset class="field-group">
          <legend>Publication dates</legend>
          <div class="field-row">
            <TextField id="date_from" label="From" type="date" value={form.dateFrom} onInput={(dateFrom) => set({ dateFrom })} errors={errors.date_from} />
            <TextField id="date_to" label="To" type="date" value={form.dateTo} onInput={(dateTo) => set({ dateTo })} errors={errors.date_to} />
          </div>
        </fieldset>
        <div class="field-row">
          <TextField id="max_results" label="Results per source" type="number" value={form.maxResults} onInput={(maxResults) => set({ maxResults })} errors={errors.max_results} placeholder="100" hint="Empty: svc's default (100)." />
          <TextField id="keywords" label="Keywords that must also match" value={form.keywords} onInput={(keywords) => set({ keywords })} errors={errors.keywords} hint="Separate them with commas." />
        </div>
        <AiFields form={form} set={set} errors={errors} settings={aiSettings.data} />
        {placed && placed.rest.length > 0 && (
          <div class="note note-error" role="alert">
            <strong class="note-title">svc refused this search.</strong>
            {placed.rest.map((m) => (
              <p key={m}>{m}</p>
            ))}
          </div>
        )}
        {refusal && !placed && <ErrorNote error={refusal} title={refusal instanceof ApiError && refusal.status === 429 ? 'No run can start right now.' : 'The search did not start.'} />}
        <div class="form-actions">
          <button type="submit" disabled={submitting || nothingChosen || !!blockedDive}>
            {submitting ? 'Starting…' : form.mode === 'dive' ? 'Start the dive' : `Start the sweep${sending.length ? ` of ${count(sending.length, 'source')}` : ''}`}
          </button>
          {nothingChosen && <span class="muted">Choose {form.mode === 'dive' ? 'a source' : 'at least one source'} that can be asked now.</span>}
          {blockedDive && <span class="muted">{blockedDive.message}</span>}
        </div>
      </form>
      <SaveConfiguration
        mode={form.mode}
        parameters={parameters}
        onSaved={(id) => {
          configurations.reload();
          set({ configId: id });
        }}
      />
    </>
  );
}

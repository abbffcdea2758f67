/**
 * The routine form, for a new routine and for an edit: the search it runs
 * (a query, or a followed person), its sources with the Search page's
 * markings, the date window each fire asks for, the schedule builder, the
 * intent the coverage audit compares against, the AI summary and what
 * happens after a run. Every field's refusal shows beside it in the service's
 * words, placed by the 422 item's `loc`.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { Profile } from '../api/profiles.js';
import { routines } from '../api/routines.js';
import type { Catalog, ConfigurationList, SearchRepositories } from '../api/types.js';
import { navigate } from '../router.js';
import { Busy, ErrorNote, FieldError } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { AiFields, type AiSettings } from '../search/ai-fields.js';
import { SourcePicker, type Offer } from '../search/source-picker.js';
import { applyParameters, placeRefusal, routineBody, type FieldId, type RoutineForm } from './form.js';
import { ScheduleBuilder } from './schedule-builder.js';
import { expressionOf } from './schedule.js';

type Errors = Partial<Record<FieldId, string[]>>;

function Field(props: { id: string; label: string; value: string; onInput: (v: string) => void; errors?: string[]; hint?: string; type?: 'text' | 'number'; placeholder?: string; multiline?: boolean }) {
  const { id, label, value, onInput, errors = [], hint, type = 'text', placeholder, multiline } = props;
  const described = [hint ? `${id}-hint` : '', errors.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, name: id, value, placeholder, 'aria-invalid': errors.length > 0, 'aria-describedby': described };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={2} onInput={(e) => onInput((e.target as HTMLTextAreaElement).value)} />
      ) : (
        <input {...common} type={type as 'text'} onInput={(e) => onInput((e.target as HTMLInputElement).value)} />
      )}
      {hint && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}

function Check({ id, label, checked, onChange, hint, errors = [] }: { id: string; label: string; checked: boolean; onChange: (on: boolean) => void; hint?: string; errors?: string[] }) {
  return (
    <div class="check-field">
      <div class="check">
        <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} aria-describedby={hint ? `${id}-hint` : undefined} />
        <label for={id}>{label}</label>
      </div>
      {hint && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}

/** Follow a person watch profile: the picker reads GET /api/profiles (the profiles themselves have their own page). */
function FollowPicker({ form, set, people, errors }: { form: RoutineForm; set: (p: Partial<RoutineForm>) => void; people: Profile[]; errors: string[] }) {
  return (
    <fieldset class="field-group" aria-describedby={errors.length ? 'follow-error' : undefined}>
      <legend>Follow a person</legend>
      <div class="field-row">
        <div class="field">
          <label for="follow">Watch profile</label>
          <select id="follow" value={form.followProfile} aria-invalid={errors.length > 0} aria-describedby="follow-hint follow-error" onChange={(e) => set({ followProfile: (e.target as HTMLSelectElement).value })}>
            <option value="">None: the query is the search</option>
            {people.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.display_name || p.name}
                {p.orcid ? ` (ORCID ${p.orcid})` : ''}
              </option>
            ))}
          </select>
          <p class="field-hint" id="follow-hint">
            {people.length ? 'Each fire asks the sources for this person’s papers; the query, if any, narrows them.' : 'No person is followed yet: add one on the People page first.'}
          </p>
        </div>
        {form.followProfile && (
          <div class="field">
            <label for="follow-mode">What to report</label>
            <select id="follow-mode" value={form.followMode} onChange={(e) => set({ followMode: (e.target as HTMLSelectElement).value as RoutineForm['followMode'] })}>
              <option value="new_papers">Their new papers</option>
              <option value="retractions">Also retractions, corrections and new versions of their papers</option>
            </select>
          </div>
        )}
      </div>
      <FieldError id="follow-error" messages={errors} />
    </fieldset>
  );
}

interface Props {
  /** The routine being edited; null for a new one. */
  id: number | null;
  initial: RoutineForm;
}

export function RoutineFormView({ id, initial }: Props) {
  const [form, setForm] = useState<RoutineForm>(initial);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [edited, setEdited] = useState<FieldId[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const set = (patch: Partial<RoutineForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setEdited((e) => [...e, ...(Object.keys(patch) as (keyof RoutineForm)[]).map(FIELD_OF_KEY)]);
  };

  const windowed = Boolean(form.windowDays.trim());
  const offered = useResource((signal) => api.get<SearchRepositories>('/api/search/repositories', { signal, query: { window: windowed ? 'given' : 'none' } }), [windowed]);
  const catalog = useResource((signal) => api.get<Catalog>('/api/repositories/catalog', { signal }), []);
  const profiles = useResource((signal) => routines.profiles(signal), []);
  const configurations = useResource((signal) => api.get<ConfigurationList>('/api/configurations', { signal }), []);
  const aiSettings = useResource((signal) => api.get<AiSettings>('/api/settings/ai', { signal }), []);
  const offers: Offer[] = useMemo(() => {
    const byId = new Map((catalog.data?.repositories ?? []).map((r) => [r.id, r]));
    return (offered.data?.repositories ?? []).map((r) => ({ ...r, catalog: byId.get(r.id) }));
  }, [offered.data, catalog.data]);
  const people = (profiles.data?.profiles ?? []).filter((p) => p.kind === 'person');
  const usable = (configurations.data?.configurations ?? []).filter((c) => c.config_type === 'routine' || c.config_type === 'sweep');

  const placed = placeRefusal(refusal);
  const errors = Object.fromEntries(Object.entries(placed?.byField ?? {}).filter(([field]) => !edited.includes(field as FieldId))) as Errors;
  useEffect(() => {
    if (refusal) document.querySelector<HTMLElement>('.routine-form [aria-invalid="true"]')?.focus();
  }, [refusal]);

  async function submit(event: Event) {
    event.preventDefault();
    setSubmitting(true);
    setRefusal(null);
    setEdited([]);
    try {
      const body = routineBody(form, expressionOf(form.schedule));
      const saved = id === null ? await routines.create(body) : await routines.update(id, body);
      navigate(`/routines/${saved.id}`);
    } catch (err) {
      setRefusal(err);
      setSubmitting(false);
    }
  }

  return (
    <form class="search-form routine-form" onSubmit={submit} noValidate aria-label={id === null ? 'New routine' : 'Edit routine'}>
      <Field id="name" label="Name" value={form.name} onInput={(name) => set({ name })} errors={errors.name} placeholder="e.g. coral reef ecology" />
      {usable.length > 0 && (
        <div class="field">
          <label for="config">Start from a saved configuration</label>
          <select
            id="config"
            value={form.configId === null ? '' : String(form.configId)}
            aria-describedby="config-hint config-error"
            onChange={(e) => {
              const config = usable.find((c) => String(c.id) === (e.target as HTMLSelectElement).value);
              setForm(config ? applyParameters(form, config.parameters, config.id) : { ...form, configId: null });
            }}
          >
            <option value="">None</option>
            {usable.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name} ({c.config_type})
              </option>
            ))}
          </select>
          <p class="field-hint" id="config-hint">
            Its search fills the fields below, and the routine's runs are linked to it.
          </p>
          <FieldError id="config-error" messages={errors.config ?? []} />
        </div>
      )}
      {profiles.data && <FollowPicker form={form} set={set} people={people} errors={errors.follow ?? []} />}
      <Field
        id="query"
        label="Query"
        value={form.query}
        onInput={(query) => set({ query })}
        errors={errors.query}
        hint={form.followProfile ? 'Optional while following a person: empty asks for everything by them.' : undefined}
        placeholder="e.g. coral bleaching"
      />
      {offers.length ? <SourcePicker mode="sweep" offers={offers} selected={form.sources} onChange={(sources) => set({ sources })} errors={errors.sources ?? []} /> : offered.loading && <Busy label="Asking svc which sources can be searched…" />}
      <ErrorNote error={offered.error ?? catalog.error} title="svc could not say which sources can be asked." />
      <fieldset class="field-group">
        <legend>Publication dates each fire asks for</legend>
        <div class="field-row">
          <Field id="window_days" label="Days back from each fire" type="number" value={form.windowDays} onInput={(windowDays) => set({ windowDays })} errors={errors.window_days} hint="Empty: no date limit." />
        </div>
        <Check id="since_last_success" label="Start from the last completed run instead (the days above when there is none)" checked={form.sinceLastSuccess} onChange={(sinceLastSuccess) => set({ sinceLastSuccess })} errors={errors.since_last_success} />
      </fieldset>
      <div class="field-row">
        <Field id="max_results" label="Results per source" type="number" value={form.maxResults} onInput={(maxResults) => set({ maxResults })} errors={errors.max_results} placeholder="100" hint="Empty: svc's default (100)." />
        <Field id="keywords" label="Keywords that must also match" value={form.keywords} onInput={(keywords) => set({ keywords })} errors={errors.keywords} hint="Separate them with commas." />
      </div>
      <ScheduleBuilder draft={form.schedule} onChange={(schedule) => set({ schedule })} errors={errors.schedule ?? []} />
      <Field
        id="intent"
        label="Intent"
        multiline
        value={form.intent}
        onInput={(intent) => set({ intent })}
        errors={errors.intent}
        hint="One sentence on what belongs in the results: the coverage audit compares the routine's results against it. Empty: no audit."
      />
      <AiFields form={form} set={set} errors={errors} settings={aiSettings.data} />
      <fieldset class="field-group">
        <legend>After each run</legend>
        <Check id="email_enabled" label="Send the report by e-mail" checked={form.email} onChange={(email) => set({ email })} hint="To the recipient in svc's e-mail settings; more destinations (folder, webhook, feed) are set on the routine's Delivery page." />
        <Check id="email_ai_summary" label="Put the AI summary in the e-mail" checked={form.emailAiSummary} onChange={(emailAiSummary) => set({ emailAiSummary })} errors={errors.email_ai_summary} />
        <Check id="notify" label="Notify me when a run completes" checked={form.notify} onChange={(notify) => set({ notify })} errors={errors.notify} />
        <Check id="active" label="On the schedule (inactive routines run only when asked)" checked={form.active} onChange={(active) => set({ active })} />
      </fieldset>
      {placed && placed.rest.length > 0 && (
        <div class="note note-error" role="alert">
          <strong class="note-title">svc refused this routine.</strong>
          {placed.rest.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
      {refusal && !placed && <ErrorNote error={refusal} title="The routine was not saved." />}
      <div class="form-actions">
        <button type="submit" disabled={submitting}>
          {submitting ? 'Saving…' : id === null ? 'Create the routine' : 'Save the routine'}
        </button>
        <a class="button quiet" href={id === null ? '/routines' : `/routines/${id}`}>
          Cancel
        </a>
      </div>
    </form>
  );
}

const FIELD_OF_KEY = (key: keyof RoutineForm): FieldId =>
  (
    ({
      name: 'name',
      query: 'query',
      sources: 'sources',
      keywords: 'keywords',
      maxResults: 'max_results',
      windowDays: 'window_days',
      sinceLastSuccess: 'since_last_success',
      intent: 'intent',
      schedule: 'schedule',
      ai: 'ai',
      aiModel: 'ai_model',
      aiInstructions: 'ai_instructions',
      emailAiSummary: 'email_ai_summary',
      email: 'email_ai_summary',
      notify: 'notify',
      active: 'active',
      followProfile: 'follow',
      followMode: 'follow',
      configId: 'config',
    }) as Record<keyof RoutineForm, FieldId>
  )[key];

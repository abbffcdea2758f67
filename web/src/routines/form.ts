/**
 * The routine form as data: what a stored routine or a saved configuration
 * fills in, the RoutineCreate / RoutineUpdate body it becomes, and where a
 * refusal goes. Nothing is judged here: the service validates the body, and
 * its 422 items (and the entity's 400 reasons) are placed beside these fields.
 */
import { ApiError, type ValidationItem } from '../api/errors.js';
import type { RoutineView } from '../api/routines.js';
import { EMPTY_SCHEDULE, scheduleFromExpression, type ScheduleDraft } from './schedule.js';

export interface RoutineForm {
  name: string;
  query: string;
  sources: string[];
  /** Comma-separated, as the CLI's --keywords. */
  keywords: string;
  /** As typed: empty leaves the service's default. */
  maxResults: string;
  /** Days back from each fire; empty for no date limit. */
  windowDays: string;
  sinceLastSuccess: boolean;
  intent: string;
  schedule: ScheduleDraft;
  ai: boolean;
  aiModel: string;
  aiInstructions: string;
  emailAiSummary: boolean;
  email: boolean;
  notify: boolean;
  active: boolean;
  /** A person profile's id as text, '' for none. */
  followProfile: string;
  followMode: 'new_papers' | 'retractions';
  configId: number | null;
}

export const EMPTY_ROUTINE: RoutineForm = {
  name: '',
  query: '',
  sources: [],
  keywords: '',
  maxResults: '',
  windowDays: '7',
  sinceLastSuccess: false,
  intent: '',
  schedule: EMPTY_SCHEDULE,
  ai: false,
  aiModel: '',
  aiInstructions: '',
  emailAiSummary: false,
  email: false,
  notify: false,
  active: true,
  followProfile: '',
  followMode: 'new_papers',
  configId: null,
};

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** A saved configuration's parameters (a routine's or a sweep's) over the form: the search part only. */
export function applyParameters(form: RoutineForm, parameters: Record<string, unknown>, configId: number | null): RoutineForm {
  const ai = (parameters.ai_settings ?? {}) as Record<string, unknown>;
  const repositories = Array.isArray(parameters.repositories) ? parameters.repositories.map(text) : parameters.repository ? [text(parameters.repository)] : form.sources;
  return {
    ...form,
    query: text(parameters.query),
    sources: repositories.filter(Boolean),
    keywords: Array.isArray(parameters.keywords) ? parameters.keywords.map(text).join(', ') : '',
    maxResults: text(parameters.max_results),
    windowDays: parameters.window_days === undefined ? form.windowDays : text(parameters.window_days),
    sinceLastSuccess: parameters.since_last_success === true,
    ai: parameters.ai_enabled === true || form.ai,
    aiModel: text(ai.model) || form.aiModel,
    aiInstructions: text(ai.instructions) || form.aiInstructions,
    configId,
  };
}

export function formFromRoutine(r: RoutineView): RoutineForm {
  const p = r.parameters;
  const ai = (r.ai_settings ?? p.ai_settings ?? {}) as Record<string, unknown>;
  return {
    name: r.name,
    query: p.query,
    sources: p.repositories,
    keywords: p.keywords.join(', '),
    maxResults: String(p.max_results),
    windowDays: p.window_days === null ? '' : String(p.window_days),
    sinceLastSuccess: p.since_last_success,
    intent: r.intent ?? '',
    schedule: scheduleFromExpression(r.schedule_cron),
    ai: r.ai_enabled || p.ai_enabled,
    aiModel: text(ai.model),
    aiInstructions: text(ai.instructions),
    emailAiSummary: r.email_ai_summary_enabled,
    email: r.email_enabled,
    notify: r.notify_on_complete,
    active: r.is_active,
    followProfile: r.entity ? String(r.entity.profile_id) : '',
    followMode: r.entity?.mode ?? 'new_papers',
    configId: p.saved_configuration_id,
  };
}

/** The search a routine runs (its `parameters`), also what "save as a configuration" stores. */
export function parametersOf(form: RoutineForm): Record<string, unknown> {
  const p: Record<string, unknown> = { repositories: form.sources, query: form.query, since_last_success: form.sinceLastSuccess };
  const keywords = form.keywords.split(',').map((k) => k.trim()).filter(Boolean);
  p.keywords = keywords.length ? keywords : null;
  if (form.maxResults.trim()) p.max_results = Number(form.maxResults);
  p.window_days = form.windowDays.trim() ? Number(form.windowDays) : null;
  if (form.configId !== null) p.saved_configuration_id = form.configId;
  return p;
}

/** The body for POST /api/routines or PUT /api/routines/{id}: every field the form holds (`expression`: the schedule as stored). */
export function routineBody(form: RoutineForm, expression: string): Record<string, unknown> {
  const settings: Record<string, string> = {};
  if (form.ai && form.aiModel.trim()) settings.model = form.aiModel.trim();
  if (form.ai && form.aiInstructions.trim()) settings.instructions = form.aiInstructions;
  return {
    name: form.name,
    schedule_cron: expression,
    parameters: parametersOf(form),
    ai_enabled: form.ai,
    ai_settings: Object.keys(settings).length ? settings : null,
    email_ai_summary_enabled: form.emailAiSummary,
    email_enabled: form.email,
    notify_on_complete: form.notify,
    intent: form.intent.trim() ? form.intent : null,
    is_active: form.active,
    entity: form.followProfile ? { profile_id: Number(form.followProfile), mode: form.followMode } : null,
  };
}

export type FieldId = 'name' | 'active' | 'query' | 'sources' | 'keywords' | 'max_results' | 'window_days' | 'since_last_success' | 'schedule' | 'intent' | 'ai' | 'ai_model' | 'ai_instructions' | 'follow' | 'config' | 'notify' | 'email_ai_summary';

const PARAMETER_FIELDS: Record<string, FieldId> = {
  query: 'query',
  repositories: 'sources',
  repository: 'sources',
  keywords: 'keywords',
  max_results: 'max_results',
  window_days: 'window_days',
  since_last_success: 'since_last_success',
  saved_configuration_id: 'config',
  ai_enabled: 'ai',
};

function fieldOf(loc: (string | number)[]): FieldId | null {
  const [root, key, sub] = loc.map(String);
  if (root !== 'body') return null;
  switch (key) {
    case 'name':
    case 'intent':
      return key;
    case 'schedule_cron':
      return 'schedule';
    case 'parameters':
      return sub ? (PARAMETER_FIELDS[sub] ?? null) : 'query';
    case 'ai_enabled':
      return 'ai';
    case 'ai_settings':
      return loc[2] === 'model' ? 'ai_model' : loc[2] === 'instructions' ? 'ai_instructions' : 'ai';
    case 'entity':
      return 'follow';
    case 'notify_on_complete':
      return 'notify';
    case 'email_ai_summary_enabled':
    case 'email_enabled':
      return 'email_ai_summary';
    default:
      return null;
  }
}

/** A refusal's words by field: a 422's items by `loc`; the entity's 400s (a bad profile, mode or kind) beside the follow picker; the rest above the form. */
export function placeRefusal(err: unknown): { byField: Partial<Record<FieldId, string[]>>; rest: string[] } | null {
  if (!(err instanceof ApiError)) return null;
  if (err.status === 400 && /entity|profile/.test(err.reason)) return { byField: { follow: [err.message] }, rest: [] };
  if (err.status !== 422) return null;
  return placeItems(err.items);
}

export function placeItems(items: ValidationItem[]): { byField: Partial<Record<FieldId, string[]>>; rest: string[] } {
  const byField: Partial<Record<FieldId, string[]>> = {};
  const rest: string[] = [];
  for (const item of items) {
    const field = fieldOf(item.loc);
    if (field) (byField[field] ??= []).push(item.msg);
    else rest.push(item.msg);
  }
  return { byField, rest };
}

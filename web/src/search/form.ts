/**
 * The Search page's form as data: what a link or a saved configuration fills
 * in, and the DiveRequest or SweepRequest body it becomes. Nothing is judged
 * here: the service validates the body and its 422 items are placed back
 * beside these fields by `loc`.
 */
import type { ValidationItem } from '../api/errors.js';

export type Mode = 'dive' | 'sweep';

export interface SearchForm {
  mode: Mode;
  query: string;
  /** The chosen sources; a dive asks the first. */
  sources: string[];
  dateFrom: string;
  dateTo: string;
  /** As typed: empty leaves the service's default. */
  maxResults: string;
  /** Comma-separated, as the CLI's --keywords. */
  keywords: string;
  ai: boolean;
  aiModel: string;
  aiInstructions: string;
  configId: number | null;
}

export const EMPTY_FORM: SearchForm = { mode: 'dive', query: '', sources: [], dateFrom: '', dateTo: '', maxResults: '', keywords: '', ai: false, aiModel: '', aiInstructions: '', configId: null };

/** /search?mode=sweep&source=arxiv&source=crossref&q=…&from=…&to=…&max=…&keywords=…&config=… */
export function formFromQuery(query: URLSearchParams): SearchForm {
  const config = Number(query.get('config'));
  return {
    ...EMPTY_FORM,
    mode: query.get('mode') === 'sweep' ? 'sweep' : 'dive',
    query: query.get('q') ?? '',
    sources: query.getAll('source').filter(Boolean),
    dateFrom: query.get('from') ?? '',
    dateTo: query.get('to') ?? '',
    maxResults: query.get('max') ?? '',
    keywords: query.get('keywords') ?? '',
    configId: Number.isInteger(config) && config > 0 ? config : null,
  };
}

/** The link that opens the Search page filled in as `form` is (a run's "change and run again"). */
export function formLink(form: Partial<SearchForm>): Record<string, string | string[] | undefined> {
  return { mode: form.mode, q: form.query, source: form.sources, from: form.dateFrom, to: form.dateTo, max: form.maxResults, keywords: form.keywords };
}

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** A saved dive or sweep configuration's parameters (a request body) as the form. */
export function formFromParameters(mode: Mode, parameters: Record<string, unknown>, configId: number | null): SearchForm {
  const ai = (parameters.ai_settings ?? {}) as Record<string, unknown>;
  const sources = mode === 'dive' ? [text(parameters.repository)] : Array.isArray(parameters.repositories) ? parameters.repositories.map(text) : [];
  return {
    mode,
    query: text(parameters.query),
    sources: sources.filter(Boolean),
    dateFrom: text(parameters.date_from),
    dateTo: text(parameters.date_to),
    maxResults: text(parameters.max_results),
    keywords: Array.isArray(parameters.keywords) ? parameters.keywords.map(text).join(', ') : '',
    ai: parameters.ai_enabled === true,
    aiModel: text(ai.model),
    aiInstructions: text(ai.instructions),
    configId,
  };
}

/** The request body for POST /api/search/{dive,sweep}; empty fields are left out so the service's defaults apply. */
export function requestBody(form: SearchForm, sources: string[], requestId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { query: form.query, request_id: requestId };
  if (form.mode === 'dive') body.repository = sources[0] ?? '';
  else body.repositories = sources;
  if (form.dateFrom) body.date_from = form.dateFrom;
  if (form.dateTo) body.date_to = form.dateTo;
  if (form.maxResults.trim()) body.max_results = Number(form.maxResults);
  const keywords = form.keywords.split(',').map((k) => k.trim()).filter(Boolean);
  if (keywords.length) body.keywords = keywords;
  if (form.ai) {
    body.ai_enabled = true;
    const settings: Record<string, string> = {};
    if (form.aiModel.trim()) settings.model = form.aiModel.trim();
    if (form.aiInstructions.trim()) settings.instructions = form.aiInstructions;
    if (Object.keys(settings).length) body.ai_settings = settings;
  }
  if (form.configId !== null) body.saved_configuration_id = form.configId;
  return body;
}

/** The form's fields that a refusal can be placed beside, by the body key its `loc` names first. */
export type FieldId = 'query' | 'sources' | 'date_from' | 'date_to' | 'max_results' | 'keywords' | 'ai' | 'ai_model' | 'ai_instructions' | 'config';

function fieldOf(loc: (string | number)[]): FieldId | null {
  const [root, key, sub] = loc.map(String);
  if (root !== 'body') return null;
  switch (key) {
    case 'query':
    case 'date_from':
    case 'date_to':
    case 'max_results':
    case 'keywords':
      return key;
    case 'repository':
    case 'repositories':
      return 'sources';
    case 'ai_enabled':
      return 'ai';
    case 'ai_settings':
      return sub === 'model' ? 'ai_model' : sub === 'instructions' ? 'ai_instructions' : 'ai';
    case 'saved_configuration_id':
      return 'config';
    default:
      return null;
  }
}

/** A 422's items: those placed beside a field, and the rest (shown above the form). */
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

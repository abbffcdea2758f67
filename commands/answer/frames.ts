/**
 * Reading an answer's SSE frames for a person. Each frame is the server's
 * AnswerFrame (identities, sequence, type, data); this tracks the state, the
 * stage and how much model text came, rejects frames of another answer,
 * request, project, vault or runtime (spec 2: stale identities are rejected
 * by the client), and says each frame in one line.
 */
import { SvcError } from '../../src/errors.js';
import { TERMINAL_STATES, type AnswerState } from '../../src/answers/types.js';

export interface Expected {
  answer_id: string;
  project_id: string;
  vault_id: string;
  runtime_id: string;
}

interface Frame {
  sequence?: unknown;
  type?: unknown;
  answer_id?: unknown;
  request_sha256?: unknown;
  project_id?: unknown;
  vault_id?: unknown;
  runtime_id?: unknown;
  data?: unknown;
}

const staleFrame = (what: string) =>
  new SvcError(409, 'stale_frame', `The event stream sent a frame of another ${what}; it was rejected and following stopped. Run \`svc answer show\` to read the saved answer.`);

export class FrameTracker {
  state: string = 'admitted';
  stage: string | null = null;
  /** Codepoints of model text received (partial frames; unvalidated). */
  characters = 0;
  private sequence = 0;
  private requestSha: string | null = null;

  constructor(private readonly expected: Expected) {}

  get ended(): boolean {
    return TERMINAL_STATES.has(this.state as AnswerState);
  }

  /** Take one frame; answers its line for a log (piped stderr). Throws on a stale identity or sequence. */
  take(event: string, raw: unknown): string {
    const f = (raw && typeof raw === 'object' ? raw : {}) as Frame;
    for (const key of ['answer_id', 'project_id', 'vault_id', 'runtime_id'] as const) {
      if (f[key] !== this.expected[key]) throw staleFrame(key.replace('_id', ''));
    }
    if (typeof f.request_sha256 !== 'string' || (this.requestSha !== null && f.request_sha256 !== this.requestSha)) throw staleFrame('request');
    this.requestSha = f.request_sha256;
    if (typeof f.sequence !== 'number' || f.sequence <= this.sequence) throw staleFrame('sequence (not increasing)');
    this.sequence = f.sequence;
    const d = (f.data && typeof f.data === 'object' ? f.data : {}) as Record<string, unknown>;
    if (typeof d.state === 'string') this.state = d.state;
    let detail = '';
    switch (event) {
      case 'snapshot':
        if (typeof d.partial_text === 'string') this.characters = [...d.partial_text].length;
        detail = 'the saved answer';
        break;
      case 'progress':
        if (typeof d.stage === 'string') this.stage = d.stage;
        detail = this.stage ?? '';
        break;
      case 'partial':
        if (typeof d.text === 'string') this.characters += [...d.text].length;
        detail = `${this.characters} characters of model text so far`;
        break;
      case 'report':
        detail = reportText(d);
        break;
      case 'terminal': {
        const error = d.error as { reason?: string; message?: string } | null | undefined;
        detail = error?.reason ? `${error.reason}: ${error.message ?? ''}` : '';
        break;
      }
    }
    return `#${f.sequence} ${event}: ${this.state}${detail ? ` · ${detail}` : ''}`;
  }

  /** The one line a terminal redraws. */
  statusLine(): string {
    return `${this.state}${this.stage && this.state === 'running' ? ` (${this.stage})` : ''} · ${this.characters} characters`;
  }
}

function reportText(d: Record<string, unknown>): string {
  const usage = d.usage as { input_tokens?: number | null; output_tokens?: number | null; provenance?: string } | undefined;
  if (usage) return usage.provenance === 'reported' ? `tokens in ${usage.input_tokens ?? '?'}, out ${usage.output_tokens ?? '?'} (reported; billing unknown)` : 'no token counts reported';
  const model = d.reported_model as { model?: string } | undefined;
  if (model?.model) return `model ${model.model} (as reported)`;
  return '';
}

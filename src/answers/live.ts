/**
 * A live answer run: its abort controller and its event hub. The hub has at
 * most one owned subscriber, which must attach within the attach window;
 * its queue is bounded in frames and bytes (consecutive partial text frames
 * coalesce). Overflow, a disconnect or a missed attach cancel the run.
 * Frames carry the answer, request, project, vault and runtime identities
 * and a monotonic sequence; the first frame a subscriber gets is the full
 * saved snapshot.
 */
import type { AnswerFrame, FrameType } from '../wire/answers.js';
import type { AnswerLimits } from './limits.js';

export type { AnswerFrame, FrameType } from '../wire/answers.js';

export type StopReason = 'cancel_requested' | 'subscriber_disconnected' | 'queue_overflow' | 'attach_timeout' | 'shutdown';

export interface Identity {
  answer_id: string;
  request_sha256: string;
  project_id: string;
  vault_id: string;
  runtime_id: string;
}

export interface Subscriber {
  /** The next frame, or null once the stream is over. */
  next(): Promise<AnswerFrame | null>;
  close(): void;
}

export class LiveRun {
  readonly controller = new AbortController();
  stopReason: StopReason | null = null;
  done: Promise<void> = Promise.resolve();
  private sequence = 0;
  private attached = false;
  private queue: { frame: AnswerFrame; bytes: number }[] = [];
  private queueBytes = 0;
  private waiter: ((f: AnswerFrame | null) => void) | null = null;
  private ended = false;
  private attachTimer: NodeJS.Timeout;
  private onAttach!: () => void;
  /** Resolves when the subscriber attaches: the run starts only then (admitted until). */
  readonly attachedOnce = new Promise<void>((resolve) => (this.onAttach = resolve));

  constructor(readonly identity: Identity, private readonly limits: AnswerLimits) {
    this.attachTimer = setTimeout(() => {
      if (!this.attached) this.stop('attach_timeout');
    }, limits.attachMs);
    this.attachTimer.unref();
  }

  stop(reason: StopReason): void {
    if (this.controller.signal.aborted) return;
    this.stopReason = reason;
    clearTimeout(this.attachTimer);
    this.controller.abort(reason);
  }

  get hasSubscriber(): boolean {
    return this.attached;
  }

  /** Attach the one subscriber; `snapshot` gives the data of its first frame. */
  attach(snapshot: () => unknown): Subscriber | null {
    if (this.attached) return null;
    this.attached = true;
    clearTimeout(this.attachTimer);
    this.push('snapshot', snapshot());
    this.onAttach();
    return {
      next: () => {
        const item = this.queue.shift();
        if (item) {
          this.queueBytes -= item.bytes;
          return Promise.resolve(item.frame);
        }
        if (this.ended) return Promise.resolve(null);
        return new Promise((resolve) => (this.waiter = resolve));
      },
      close: () => {
        if (!this.ended) this.stop('subscriber_disconnected');
        this.ended = true;
        this.wake(null);
      },
    };
  }

  private wake(frame: AnswerFrame | null): boolean {
    const w = this.waiter;
    if (!w) return false;
    this.waiter = null;
    w(frame);
    return true;
  }

  /** Publish a frame (dropped when nobody is attached: the snapshot carries the saved state). */
  push(type: FrameType, data: unknown): void {
    if (!this.attached || this.ended) return;
    const last = this.queue[this.queue.length - 1];
    if (type === 'partial' && last?.frame.type === 'partial') {
      const d = last.frame.data as { text: string };
      d.text += (data as { text: string }).text;
      const bytes = Buffer.byteLength(JSON.stringify(last.frame), 'utf8');
      this.queueBytes += bytes - last.bytes;
      last.bytes = bytes;
    } else {
      const frame: AnswerFrame = { sequence: ++this.sequence, type, ...this.identity, data };
      if (this.wake(frame)) return;
      const bytes = Buffer.byteLength(JSON.stringify(frame), 'utf8');
      this.queue.push({ frame, bytes });
      this.queueBytes += bytes;
    }
    if (this.queue.length > this.limits.queueFrames || this.queueBytes > this.limits.queueBytes) {
      if (type !== 'terminal') this.stop('queue_overflow');
    }
    if (type === 'terminal') this.end();
  }

  /** No more frames after what is queued. */
  end(): void {
    this.ended = true;
    clearTimeout(this.attachTimer);
    if (this.queue.length === 0) this.wake(null);
  }
}

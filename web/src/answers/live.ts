/**
 * Follow one admitted answer over its event stream: the text as it streams
 * (unvalidated until the terminal frame), the stage, the reported model and
 * token counts. The stream has one subscriber and no resume: leaving the page
 * disconnects it, which the service takes as a cancel (the page guards it
 * with useLeaveGuard).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { answers, type Answer, type Frame } from '../api/answers.js';

export interface Live {
  text: string;
  stage: string;
  model: string | null;
  usage: Answer['usage'] | null;
  trouble: unknown;
}

export function useAnswerStream(vaultId: string, projectId: string, answer: Answer | null, onEnd: (saved: Answer | null) => void): Live {
  const [live, setLive] = useState<Live>({ text: '', stage: 'admitted', model: null, usage: null, trouble: null });
  const end = useRef(onEnd);
  end.current = onEnd;
  useEffect(() => {
    if (!answer) return;
    setLive({ text: answer.partial_text, stage: answer.state, model: null, usage: null, trouble: null });
    const controller = new AbortController();
    let last = 0;
    let ended = false;
    const onFrame = (f: Frame) => {
      // Frames of another answer, request or server instance are stale: never shown.
      if (f.answer_id !== answer.answer_id || f.request_sha256 !== answer.request_sha256 || f.runtime_id !== answer.runtime_id || f.sequence <= last) return;
      last = f.sequence;
      const d = f.data as Record<string, unknown>;
      if (f.type === 'snapshot') setLive((s) => ({ ...s, text: (d as unknown as Answer).partial_text, stage: (d as unknown as Answer).state }));
      else if (f.type === 'partial') setLive((s) => ({ ...s, text: s.text + String(d.text ?? '') }));
      else if (f.type === 'progress') setLive((s) => ({ ...s, stage: String(d.stage ?? d.state ?? s.stage) }));
      else if (f.type === 'report') {
        const model = d.reported_model as { model: string } | undefined;
        setLive((s) => ({ ...s, model: model?.model ?? s.model, usage: (d.usage as Answer['usage'] | undefined) ?? s.usage }));
      } else if (f.type === 'terminal') {
        ended = true;
        end.current(d as unknown as Answer);
      }
    };
    answers.follow(vaultId, projectId, answer, onFrame, controller.signal).then(
      () => !ended && !controller.signal.aborted && end.current(null),
      (err) => {
        if (controller.signal.aborted) return;
        setLive((s) => ({ ...s, trouble: err }));
        end.current(null);
      },
    );
    return () => controller.abort();
  }, [answer?.answer_id]);
  return live;
}

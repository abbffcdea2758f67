/**
 * Server-sent events from a service iterator: `id`, `event` and `data` per
 * frame, a comment every 15 s so proxies and clients keep the connection, and
 * the iterator stopped when the client goes away.
 */
export interface SseFrame {
  id?: string | number;
  event: string;
  data: unknown;
}

export function sseFrame(frame: SseFrame): string {
  const lines = [];
  if (frame.id !== undefined) lines.push(`id: ${frame.id}`);
  lines.push(`event: ${frame.event}`);
  for (const line of JSON.stringify(frame.data).split('\n')) lines.push(`data: ${line}`);
  return lines.join('\n') + '\n\n';
}

export function sseResponse(frames: (signal: AbortSignal) => AsyncIterable<SseFrame>, keepAliveMs = 15_000): Response {
  const controller = new AbortController();
  const encoder = new TextEncoder();
  let timer: NodeJS.Timeout | undefined;
  const body = new ReadableStream<Uint8Array>({
    async start(stream) {
      timer = setInterval(() => stream.enqueue(encoder.encode(': keep-alive\n\n')), keepAliveMs);
      try {
        stream.enqueue(encoder.encode(': stream open\n\n'));
        for await (const frame of frames(controller.signal)) {
          if (controller.signal.aborted) break;
          stream.enqueue(encoder.encode(sseFrame(frame)));
        }
        stream.close();
      } catch (err) {
        if (!controller.signal.aborted) stream.error(err);
      } finally {
        clearInterval(timer);
      }
    },
    cancel() {
      clearInterval(timer);
      controller.abort();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' },
  });
}

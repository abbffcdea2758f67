/**
 * A loopback stand-in for an OpenAI-compatible provider's models list (what
 * POST /api/credentials/validate and POST /api/ai/models ask): GET /models
 * answers the listed ids for `Bearer <goodKey>` and 401 otherwise. Point svc
 * at it with SVC_AI_OPENAI_URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AiStub {
  url: string;
  /** The Authorization headers it was sent, in order. */
  seen: string[];
  close(): Promise<void>;
}

export async function startAiStub(goodKey: string, models: string[]): Promise<AiStub> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(String(req.headers.authorization ?? ''));
    res.setHeader('content-type', 'application/json');
    if (!req.url?.endsWith('/models')) return void res.writeHead(404).end('{}');
    if (req.headers.authorization !== `Bearer ${goodKey}`) return void res.writeHead(401).end(JSON.stringify({ error: { message: 'Incorrect API key provided.' } }));
    res.end(JSON.stringify({ data: models.map((id) => ({ id, object: 'model' })) }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

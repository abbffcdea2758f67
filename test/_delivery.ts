/**
 * Helpers for delivery tests: a server whose crossref source is a loopback
 * stub, a routine, a run that settles, and real peers on loopback — an SMTP
 * server (smtp-server) keeping raw messages, and a node:http webhook receiver.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliveryTuning } from '../src/delivery/tuning.js';
import { deliveryWorker } from '../src/delivery/worker.js';
import { executionManager } from '../src/executions/manager.js';
import { fixture, startTestServer, waitFor, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';

export interface DeliveryEnv {
  t: TestServer;
  crossref: Stub;
  close(): Promise<void>;
}

export async function deliveryServer(env: Record<string, string> = {}): Promise<DeliveryEnv> {
  const crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  const t = await startTestServer({
    env: { SVC_SOURCE_CROSSREF_URL: crossref.url, ...env },
    context: { tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, sourceTimeoutMs: 3000, executionHeartbeatMs: 50 } },
  });
  const tuning = deliveryTuning(t.ctx);
  tuning.backoffMs = [100, 100];
  tuning.pollMs = 100;
  tuning.webhookTimeoutMs = 1500;
  return { t, crossref, close: async () => (await t.close(), await crossref.close()) };
}

export async function newRoutine(t: TestServer, overrides: Record<string, unknown> = {}): Promise<number> {
  const r = await t.request('POST', '/api/routines', {
    body: { name: 'ecology watch', schedule_cron: '0 6 * * *', parameters: { repositories: ['crossref'], query: 'ecology', max_results: 2, window_days: 7 }, is_active: false, ...overrides },
  });
  if (r.status !== 201) throw new Error(`routine create answered ${r.status}: ${r.text}`);
  return r.json().id;
}

export async function addTarget(t: TestServer, routineId: number, body: Record<string, unknown>): Promise<any> {
  const r = await t.request('POST', `/api/routines/${routineId}/delivery-targets`, { body });
  if (r.status !== 201) throw new Error(`target create answered ${r.status}: ${r.text}`);
  return r.json();
}

/** Run the routine now and wait for the run to settle; answers the execution id. */
export async function runRoutine(t: TestServer, routineId: number): Promise<number> {
  const r = await t.request('POST', `/api/routines/${routineId}/run`);
  if (r.status !== 202) throw new Error(`run answered ${r.status}: ${r.text}`);
  const id = r.json().execution_id as number;
  await waitFor(async () => (await t.request('GET', `/api/executions/${id}`)).json().status !== 'running', 15_000, `execution ${id}`);
  return id;
}

/**
 * Wait until the run's after-run steps are over in the server's process (its deliveries created and the
 * automatic ones attempted, its notifications sent): what they did not do by then, they will not do.
 */
export async function afterRunSettled(t: TestServer, executionId: number): Promise<void> {
  await executionManager(t.ctx).wait(executionId);
}

/** Let the server's delivery worker make `n` whole passes over the due deliveries, one after another. */
export async function workerPasses(t: TestServer, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await deliveryWorker(t.ctx).kick();
}

/** Wait until every delivery of the execution satisfies `done`; answers them. */
export async function deliveriesWhen(t: TestServer, executionId: number, done: (d: any) => boolean, what = 'deliveries'): Promise<any[]> {
  return waitFor(
    async () => {
      const list = (await t.request('GET', `/api/executions/${executionId}/deliveries`)).json().deliveries as any[];
      return list.length > 0 && list.every(done) ? list : undefined;
    },
    15_000,
    what,
  );
}

export interface SmtpPeer {
  port: number;
  messages: { raw: Buffer; from: string; to: string[]; user?: string; pass?: string }[];
  close(): Promise<void>;
}

/** An SMTP server on loopback that keeps every message; `reject` makes it refuse recipients (550). */
export async function startSmtp(options: { reject?: () => boolean; auth?: { user: string; pass: string } } = {}): Promise<SmtpPeer> {
  const { SMTPServer } = await import('smtp-server');
  const messages: SmtpPeer['messages'] = [];
  const server = new SMTPServer({
    authOptional: !options.auth,
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) return cb(null, { user: auth.username });
      cb(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, cb) {
      if (options.reject?.()) {
        const err = new Error(`Mailbox ${address.address} unavailable`) as Error & { responseCode: number };
        err.responseCode = 550;
        return cb(err);
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({ raw: Buffer.concat(chunks), from: String((session.envelope.mailFrom as { address: string } | false) && (session.envelope.mailFrom as { address: string }).address), to: session.envelope.rcptTo.map((r) => r.address) });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = ((server as unknown as { server: http.Server }).server.address() as AddressInfo).port;
  return { port, messages, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export interface WebhookPeer {
  url: string;
  received: { headers: http.IncomingHttpHeaders; body: string }[];
  /** Answer status for the next requests (default 200); `hang` never answers. */
  status: number | 'hang' | 'redirect';
  close(): Promise<void>;
}

export async function startWebhook(): Promise<WebhookPeer> {
  const peer: WebhookPeer = { url: '', received: [], status: 200, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      peer.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (peer.status === 'hang') return;
      if (peer.status === 'redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      res.writeHead(peer.status).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/svc-secret-path`;
  peer.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return peer;
}

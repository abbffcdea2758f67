/**
 * A machine with no DNS, for svc run as a child process (`noDnsEnv()` in
 * _setup.ts loads this file with `--import`): every host name lookup fails at
 * once with ENOTFOUND, as getaddrinfo answers where no name resolves. No test
 * asks a real resolver: offline it would wait and answer EAI_AGAIN, online it
 * would ask the network. An address literal (127.0.0.1, ::1) still answers
 * itself, as getaddrinfo does without DNS: `server.listen(port, '127.0.0.1')`
 * looks its host up too.
 */
import dns from 'node:dns';
import net from 'node:net';

type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string, family?: number) => void;

const notFound = (hostname: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });

const realLookup = dns.lookup;
const realPromisesLookup = dns.promises.lookup;

(dns as { lookup: unknown }).lookup = (hostname: string, options: unknown, callback?: LookupCallback) => {
  if (net.isIP(hostname)) return (realLookup as (...args: unknown[]) => void)(hostname, options, callback);
  const done = (typeof options === 'function' ? options : callback) as LookupCallback;
  process.nextTick(done, notFound(hostname));
};
dns.promises.lookup = (async (hostname: string, options?: unknown) => {
  if (net.isIP(hostname)) return (realPromisesLookup as (...args: unknown[]) => unknown)(hostname, options);
  throw notFound(hostname);
}) as typeof dns.promises.lookup;

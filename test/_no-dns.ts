/**
 * A machine with no DNS, for svc run as a child process (`noDnsEnv()` in
 * _setup.ts loads this file with `--import`): every host name lookup fails at
 * once with ENOTFOUND, as getaddrinfo answers where no name resolves. No test
 * asks a real resolver: offline it would wait and answer EAI_AGAIN, online it
 * would ask the network.
 */
import dns from 'node:dns';

type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string, family?: number) => void;

const notFound = (hostname: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });

(dns as { lookup: unknown }).lookup = (hostname: string, options: unknown, callback?: LookupCallback) => {
  const done = (typeof options === 'function' ? options : callback) as LookupCallback;
  process.nextTick(done, notFound(hostname));
};
dns.promises.lookup = (async (hostname: string) => {
  throw notFound(hostname);
}) as typeof dns.promises.lookup;

/**
 * The token steps of every listener on 127.0.0.1 (the server, a chat's
 * permission door): take the handed-down token or mint one and keep it out
 * of the log; once bound, publish it as <state dir>/api-token-<port> (0600)
 * for the clients of the state directory; withdraw that file on close.
 */
import type { Context } from '../src/context.js';
import { chooseToken, publishToken, withdrawToken } from '../src/runtime/token.js';

export interface TokenFile {
  token: string;
  /** Write the token file for the port now bound. */
  publish(port: number): void;
  /** Remove the file published, if any. */
  withdraw(): void;
}

export function tokenFile(ctx: Context, handedDown?: string): TokenFile {
  const token = chooseToken(handedDown, ctx.random);
  ctx.log.addSecret(token);
  let published: number | undefined;
  return {
    token,
    publish(port) {
      publishToken(ctx.paths, port, token);
      published = port;
    },
    withdraw() {
      if (published !== undefined) withdrawToken(ctx.paths, published);
    },
  };
}

/**
 * What a serving process does for delivery when it starts: tell the links its
 * port, let the guard check bundle signatures with each destination's secret,
 * and start the worker (which first recovers deliveries a gone process left
 * delivering).
 */
import type { Context } from '../context.js';
import { bundleSecretFor, BUNDLE_PATH, servingPort } from './links.js';
import { deliveryWorker } from './worker.js';

export interface SignedRouteSink {
  port: number;
  signedRoutes: { method: string; path: string; secretFor(params: string[]): string | undefined | Promise<string | undefined> }[];
}

export function startDelivery(ctx: Context, runtime: SignedRouteSink): void {
  servingPort(ctx).port = () => runtime.port || undefined;
  if (!runtime.signedRoutes.some((r) => r.path === BUNDLE_PATH)) {
    runtime.signedRoutes.push({ method: 'GET', path: BUNDLE_PATH, secretFor: ([id]) => bundleSecretFor(ctx, id) });
  }
  deliveryWorker(ctx).start();
}

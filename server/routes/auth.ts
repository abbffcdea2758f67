import * as v from 'valibot';
import { forbidden } from '../../src/errors.js';
import { checkOrigin } from '../../src/runtime/origins.js';
import { readValid } from '../body.js';
import { route } from '../registry.js';

const Body = v.object({ origin: v.string() });

export const authRoutes = [
  // A browser cannot widen the list: any request carrying an Origin is refused.
  route('POST', '/api/auth/renderer-origin', async (event, { runtime }) => {
    if (event.req.headers.get('origin') !== null) {
      throw forbidden('origin_refused', 'Renderer origins are registered by the desktop shell, not from a browser.');
    }
    const body = await readValid(event, Body);
    const origin = checkOrigin(body.origin, ['body', 'origin']);
    const registered = runtime.origins.register(origin);
    return { origin, registered_origins: registered, launch_origin: runtime.origins.launch };
  }),
];

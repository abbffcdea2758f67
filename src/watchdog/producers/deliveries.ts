/**
 * Deliveries failing. Delivery records are not part of this version, so the
 * watchdog says it cannot judge them; the delivery work replaces this producer
 * with one reading its tables (failed deliveries, backoff given up).
 */
import type { Producer } from '../types.js';

export const deliveriesFailing: Producer = {
  check: 'deliveries_failing',
  describes: 'Deliveries of routine reports that failed or gave up retrying.',
  run() {
    return {
      findings: [],
      unjudged: [
        {
          check: 'deliveries_failing',
          subject: { kind: 'delivery', id: null, name: null },
          reason: 'deliveries are not recorded by this version of svc (no delivery table to read), so failing deliveries cannot be judged',
        },
      ],
    };
  },
};

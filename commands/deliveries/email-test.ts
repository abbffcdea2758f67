import type { Command } from 'commander';
import { DeliveryFailure } from '../../src/delivery/failure.js';
import { sendTestMail } from '../../src/delivery/channels/email.js';
import { SvcError } from '../../src/errors.js';
import { withContext } from '../lib/context.js';
import { emit, type Io } from '../lib/io.js';

/** `svc settings email test` and `svc deliveries email-test`: one test email with the stored settings; exit 1 when it fails. */
export function addEmailTest(cmd: Command, io: Io): void {
  cmd
    .option('--to <address>', 'recipient (default: the email settings recipient)')
    .description('send a test email with the stored mail-server settings; exit 1 if it fails')
    .action((opts: { to?: string }) =>
      withContext(io, async (ctx) => {
        try {
          const sent = await sendTestMail(ctx, opts.to);
          // The owner's own terminal may see the address (the HTTP answer never carries it).
          emit(io, sent, () => `Test email sent to ${opts.to ?? String(ctx.settings.read('email').to_address)}${opts.to === undefined ? ' (the email settings recipient)' : ''}.`);
        } catch (err) {
          if (err instanceof DeliveryFailure) throw new SvcError(err.retryable ? 502 : 409, err.retryable ? 'email_failed' : 'email_not_configured', err.message);
          throw err;
        }
      }),
    );
}

/**
 * Whether an email destination could be sent to with the settings as they
 * are now, said before the first run finds out: the same checks the email
 * channel makes (channels/email.ts) without touching the network or a secret.
 */
import type { Context } from '../context.js';

/** What is missing (a sentence naming the setting), or null when nothing is. */
export function emailNotReady(ctx: Context, target: string): string | null {
  const settings = ctx.settings.read('email');
  const missing: string[] = [];
  if (!String(settings.smtp_host ?? '')) missing.push('a mail server (`svc settings set email smtp_host HOST`)');
  if (!String(settings.from_address ?? '')) missing.push('a sender (`svc settings set email from_address ADDRESS`)');
  if (!target && !String(settings.to_address ?? '')) missing.push('a recipient (this destination names none: `svc settings set email to_address ADDRESS`)');
  if (String(settings.smtp_username ?? '') && ctx.credentials.status('smtp_password') !== 'present') missing.push('the smtp_password credential (`svc credentials set smtp_password`)');
  return missing.length ? `email cannot be sent yet: the email settings lack ${missing.join(', ')}; \`svc deliveries email-test\` checks them` : null;
}

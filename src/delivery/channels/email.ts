/**
 * The email channel: nodemailer with the stored mail-server settings (the
 * password is the smtp_password credential). A plain-text and an HTML digest
 * of the new papers with links, the full report attached. The Message-ID
 * names the delivery (id and key, key.ts), so a mail sent again after a crash
 * is recognisable, and a new mail that reuses an old delivery id is not taken
 * by the mail client for one it already has.
 * Errors say <address>, never the address, the host or the password.
 */
import type { Context } from '../../context.js';
import { digestHtml, digestText, digestTitle } from '../bundle.js';
import { DeliveryFailure, scrub } from '../failure.js';
import { deliveryKey } from '../key.js';
import { checkTarget } from '../targets.js';
import type { ChannelInput } from './types.js';
import type { TestEmailSent } from '../../wire/deliveries.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId?: string;
  attachments?: { filename: string; content: string; contentType: string }[];
}

const SMTP_WORDS: Record<string, string> = {
  EAUTH: 'the mail server refused the login',
  ECONNECTION: 'could not connect to the mail server',
  ETIMEDOUT: 'the mail server did not answer in time',
  EDNS: 'the mail server name did not resolve',
  ESOCKET: 'the connection to the mail server failed',
  EENVELOPE: 'the mail server refused the sender or recipient',
  EMESSAGE: 'the mail server refused the message',
  EPROTOCOL: 'the mail server spoke an unexpected protocol',
  ETLS: 'the TLS handshake with the mail server failed',
  ECONNREFUSED: 'the mail server refused the connection',
};

const CHECK_SERVER = 'check smtp_host, smtp_port and smtp_secure (`svc settings get email`)';
/** What to do about each failure, added after the scrubbed words (so a setting name is never taken for a secret). */
const SMTP_FIX: Record<string, string> = {
  EAUTH: 'check smtp_username and store the password again (`svc credentials set smtp_password`)',
  ECONNECTION: CHECK_SERVER,
  ETIMEDOUT: CHECK_SERVER,
  EDNS: 'check smtp_host (`svc settings get email`)',
  ESOCKET: CHECK_SERVER,
  EENVELOPE: 'check from_address and the recipient',
  EPROTOCOL: CHECK_SERVER,
  ETLS: CHECK_SERVER,
  ECONNREFUSED: CHECK_SERVER,
};

/** Send one message with the stored settings; throws DeliveryFailure saying <address>. */
export async function sendMail(ctx: Context, message: MailMessage): Promise<{ messageId: string }> {
  const settings = ctx.settings.read('email');
  const host = String(settings.smtp_host ?? '');
  const from = String(settings.from_address ?? '');
  const user = String(settings.smtp_username ?? '');
  if (!host) throw new DeliveryFailure('Email to <address> not sent: no mail server is configured (`svc settings set email smtp_host HOST`).', false);
  if (!from) throw new DeliveryFailure('Email to <address> not sent: no sender is configured (`svc settings set email from_address ADDRESS`).', false);
  let pass: string | undefined;
  if (user) {
    pass = ctx.credentials.reveal('smtp_password');
    if (!pass) throw new DeliveryFailure('Email to <address> not sent: the mail server login needs the smtp_password credential, which is not stored (`svc credentials set smtp_password`).', false);
    ctx.log.addSecret(pass);
  }
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host,
    port: Number(settings.smtp_port),
    secure: settings.smtp_secure === true,
    auth: user ? { user, pass } : undefined,
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    logger: false,
    debug: false,
  });
  try {
    const info = await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html, messageId: message.messageId, attachments: message.attachments });
    return { messageId: String(info.messageId ?? '') };
  } catch (err) {
    const e = err as { code?: string; responseCode?: number };
    const code = typeof e.code === 'string' && /^[A-Z_]{2,20}$/.test(e.code) ? e.code : undefined;
    const words = (code && SMTP_WORDS[code]) ?? 'sending failed';
    const status = typeof e.responseCode === 'number' ? `SMTP ${e.responseCode}` : undefined;
    const text = scrub(`Email to <address> failed: ${words}${code || status ? ` (${[code, status].filter(Boolean).join(', ')})` : ''}`, [message.to, host, user, pass, from], '<address>');
    const fix = code && SMTP_FIX[code];
    throw new DeliveryFailure(`${text}${fix ? `; ${fix}` : ''}.`);
  } finally {
    transport.close();
  }
}

/** The recipient: the destination's address, else the email settings' recipient. */
export function recipientFor(ctx: Context, target: string): string {
  const to = target || String(ctx.settings.read('email').to_address ?? '');
  if (!to) throw new DeliveryFailure('Email not sent: the destination names no <address> and the email settings have no recipient (`svc settings set email to_address ADDRESS`).', false);
  return to;
}

export async function sendEmail({ ctx, delivery, target, bundle, extra }: ChannelInput): Promise<void> {
  const to = recipientFor(ctx, target?.target ?? '');
  await sendMail(ctx, {
    to,
    subject: `[svc] ${digestTitle(bundle)}`,
    text: digestText(bundle, extra),
    html: digestHtml(bundle, extra),
    messageId: `<svc-delivery-${delivery.id}-${deliveryKey(delivery)}@svc.localhost>`,
    attachments: [{ filename: `svc-report-execution-${bundle.execution.id}.txt`, content: bundle.report_text, contentType: 'text/plain; charset=utf-8' }],
  });
}

export async function sendTestMail(ctx: Context, to?: string): Promise<TestEmailSent> {
  // One address, checked as an email destination is (a list such as "a@x.org, b@y.org" is refused, 422).
  const recipient = recipientFor(ctx, to === undefined ? '' : checkTarget('email', to, ['body', 'to']));
  const at = ctx.nowIso();
  const sent = await sendMail(ctx, {
    to: recipient,
    subject: '[svc] test email',
    text: `This is a test email from svc, sent at ${at} with the stored mail-server settings.\n`,
    html: `<p>This is a test email from svc, sent at ${at} with the stored mail-server settings.</p>`,
  });
  return { sent: true, message_id: sent.messageId };
}

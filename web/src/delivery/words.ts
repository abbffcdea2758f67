/** How deliveries are said on the pages: states as words and chips, channels and destinations. */
import type { Channel, DeliveryState, Target } from '../api/deliveries.js';

export const STATE_CHIP: Record<DeliveryState, string> = {
  delivered: 'chip chip-ok',
  failed: 'chip chip-danger',
  awaiting_review: 'chip chip-warn',
  queued: 'chip',
  delivering: 'chip chip-running',
  skipped: 'chip',
};

export const stateWords = (state: DeliveryState) => state.replace(/_/g, ' ');

export const CHANNEL_LABEL: Record<Channel, string> = { email: 'E-mail', folder: 'Folder', webhook: 'Webhook', feed: 'Atom feed' };

/** What the destination field is, per channel: its label and a hint in the spec's terms. */
export const DESTINATION: Record<Channel, { label: string; hint: string; placeholder: string }> = {
  email: { label: 'Address', hint: 'One address; leave it empty to send to the recipient of the e-mail settings.', placeholder: 'name@example.org' },
  folder: { label: 'Directory', hint: 'An absolute path to a directory that exists; each report is written there as files.', placeholder: '/home/me/reports' },
  webhook: { label: 'URL', hint: 'http or https; each request is signed with a secret of this destination (see below).', placeholder: 'https://example.org/hooks/svc' },
  feed: { label: 'Directory', hint: 'An absolute path to a directory that exists; an Atom feed file there gains an entry per report.', placeholder: '/home/me/public/svc' },
};

export const destinationWords = (t: Pick<Target, 'channel' | 'target'>) => t.target || (t.channel === 'email' ? 'the recipient of the e-mail settings' : '—');

/**
 * The first-run card: what a new installation still lacks, from facts svc can
 * check locally. Dismissing puts the card away for good.
 */
import type { Context } from '../context.js';
import { readAppState, writeAppState } from '../db/app-state.js';
import type { Onboarding, OnboardingStep } from '../wire/onboarding.js';

const DISMISSED_KEY = 'onboarding_dismissed_at_utc';

export function readOnboarding(ctx: Context): Onboarding {
  const dismissedAt = readAppState<string>(ctx.db, DISMISSED_KEY) ?? null;
  const email = ctx.settings.read('email');
  const ai = ctx.settings.read('ai');
  const repositoryKeys = ctx.credentials.statuses().filter((c) => c.kind === 'repository' && c.status === 'present').length;
  const steps: OnboardingStep[] = [
    { id: 'contact_email', done: email.contact_email !== '', hint: 'Set a contact address so Crossref, OpenAlex and NCBI serve you from their polite pools: svc settings set email contact_email you@example.org' },
    { id: 'repository_keys', done: repositoryKeys > 0, hint: 'Store API keys for the repositories that need one: svc credentials set <name>' },
    { id: 'ai_provider', done: ai.provider !== 'none', hint: 'Choose an AI provider for summaries: svc settings set ai provider <name>' },
    { id: 'email_delivery', done: email.smtp_host !== '', hint: 'Configure a mail server to receive routine reports by email.' },
  ];
  return {
    show_card: dismissedAt === null,
    dismissed_at_utc: dismissedAt,
    data_dir: ctx.paths.dataDir,
    facts: { repository_keys_present: repositoryKeys, contact_email_set: email.contact_email !== '' },
    steps,
  };
}

export function dismissOnboarding(ctx: Context): Onboarding {
  if (readAppState<string>(ctx.db, DISMISSED_KEY) === undefined) writeAppState(ctx.db, DISMISSED_KEY, ctx.nowIso(), ctx.nowIso());
  return readOnboarding(ctx);
}

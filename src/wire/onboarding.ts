/**
 * The JSON of the first-run card as the routes send it (spec 1, "first-run card facts"):
 * what a new installation still lacks, from facts svc checks locally. Declared
 * once here, for the service and the window alike; imports nothing.
 */

/** The steps, in the card's order. */
export type OnboardingStepId = 'contact_email' | 'repository_keys' | 'ai_provider' | 'email_delivery';

export interface OnboardingStep {
  id: OnboardingStepId;
  done: boolean;
  /** What to do, in a sentence (with the command where there is one). */
  hint: string;
}

/** GET /api/onboarding, and POST /api/onboarding/dismiss (the card as it is after). */
export interface Onboarding {
  /** False for good once the card was dismissed. */
  show_card: boolean;
  dismissed_at_utc: string | null;
  /** Where this installation keeps its data. */
  data_dir: string;
  facts: { repository_keys_present: number; contact_email_set: boolean };
  steps: OnboardingStep[];
}

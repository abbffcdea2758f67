/**
 * Questions check each answer when it is given (clack's `validate`), by the same
 * rule the command would apply afterwards: a service check or the CLI's own.
 * The refusal is shown under the question, which is asked again.
 */
import { SvcError, ValidationError } from '../../src/errors.js';
import { oneLine } from './words.js';

/** The words of what `check` refuses, or undefined when it passes; anything but a refusal is thrown on. */
export function refusalOf(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    // A 422 names the body field (schedule_cron: …); a person at a prompt answered a question, not a field.
    if (err instanceof ValidationError) return oneLine(err.issues.map((i) => i.msg).join('; '));
    if (err instanceof SvcError) return oneLine(err.message);
    throw err;
  }
}

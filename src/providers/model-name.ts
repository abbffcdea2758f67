/**
 * What a model name may be, wherever one is given: a conversation's choices,
 * the assistant's and the AI summary's settings. The providers take any name
 * their service knows; svc only refuses what no service could (blank, too
 * long, control characters that would corrupt a log line or a header).
 */
export const MODEL_MAX = 512;

/** Why a model string is not acceptable, or undefined. */
export function modelProblem(model: unknown): string | undefined {
  if (typeof model !== 'string') return 'model must be a string';
  if (model.trim() === '') return 'model must not be blank';
  if (model.length > MODEL_MAX) return `model must have at most ${MODEL_MAX} characters`;
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(model)) return 'model must not contain Unicode control characters';
  return undefined;
}

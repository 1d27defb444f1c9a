/**
 * Rejections the guard already learned from while deciding whether to retry their call
 * (adk/hooks/retry-rejected.ts). One that was not retried reaches ADK's error path as before, and
 * the error hook must not learn from it a second time (it would count the rejection twice).
 */
const learned = new WeakSet<object>();

export function markLearned(error: unknown): void {
  if (typeof error === 'object' && error !== null) learned.add(error);
}

export function wasLearned(error: unknown): boolean {
  return typeof error === 'object' && error !== null && learned.has(error);
}

/**
 * A bounded wait on an outside call (an artifact service's save or load): a storage call
 * that never returns must not hang the turn. The call is not cancelled (ADK's artifact
 * services take no signal); it is only no longer waited for, and its late answer or
 * rejection is swallowed here, so nothing escapes unhandled.
 */

type TimedOutcome<T> =
  | { readonly status: 'done'; readonly value: T }
  | { readonly status: 'failed'; readonly error: unknown }
  | { readonly status: 'timeout' };

/** Runs `call` and waits for it at most `timeoutMs`; a throw, a rejection and a timeout become outcomes, never exceptions. */
export async function withinTime<T>(call: () => Promise<T>, timeoutMs: number): Promise<TimedOutcome<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<TimedOutcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'timeout' }), timeoutMs);
  });
  let attempt: Promise<TimedOutcome<T>>;
  try {
    attempt = call().then(
      (value): TimedOutcome<T> => ({ status: 'done', value }),
      (error: unknown): TimedOutcome<T> => ({ status: 'failed', error }),
    );
  } catch (error) {
    attempt = Promise.resolve({ status: 'failed', error });
  }
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

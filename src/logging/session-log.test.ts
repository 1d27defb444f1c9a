import { describe, expect, it } from 'vitest';
import { LOG_PREFIX } from './log-prefix.js';
import { inSessionLog, readCallerAppsWith, sessionLogger } from './session-log.js';

function capture() {
  const lines: string[] = [];
  const push = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  return { lines, logger: sessionLogger({ debug: push, info: push, warn: push, error: push }) };
}

const scopeOf = (session: string, invocation?: string, appName?: string) => ({
  invocationContext: {
    session: { id: session, ...(appName ? { appName } : {}) },
    ...(invocation ? { invocationId: invocation } : {}),
  },
});

describe('sessionLogger', () => {
  it("should put the session, invocation and app of the scope after the guard's prefix, in work that awaits", async () => {
    const { lines, logger } = capture();
    await Promise.all([
      inSessionLog(scopeOf('s-1', 'e-1', 'shop-eu'), async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        logger.info(`${LOG_PREFIX} agent 'a': compacted.`);
      }),
      inSessionLog(scopeOf('s-2'), async () => {
        logger.warn(`${LOG_PREFIX} agent 'b': masked.`, new Error('kind only'));
        await Promise.resolve();
      }),
    ]);
    expect(lines.sort()).toEqual([
      `${LOG_PREFIX} [session s-1, invocation e-1, app shop-eu] agent 'a': compacted.`,
      `${LOG_PREFIX} [session s-2] agent 'b': masked. Error: kind only`,
    ]);
  });

  it('should leave lines outside any session, and lines not of the guard, as they are', () => {
    const { lines, logger } = capture();
    logger.debug(`${LOG_PREFIX} agent 'a': idle.`);
    inSessionLog(scopeOf('s-1'), () => logger.error('ContextGuard: status() expects a session.'));
    inSessionLog(undefined, () => logger.info(`${LOG_PREFIX} no scope.`));
    expect(lines).toEqual([
      `${LOG_PREFIX} agent 'a': idle.`,
      'ContextGuard: status() expects a session.',
      `${LOG_PREFIX} no scope.`,
    ]);
  });

  it("should name the apps that called an AgentTool child before the child's own", () => {
    const { lines, logger } = capture();
    readCallerAppsWith(() => ['shop', 'lead']);
    try {
      inSessionLog(scopeOf('s-1', 'e-1', 'researcher'), () => logger.info(`${LOG_PREFIX} agent 'r': compacted.`));
    } finally {
      readCallerAppsWith(() => undefined);
    }
    expect(lines).toEqual([
      `${LOG_PREFIX} [session s-1, invocation e-1, app shop > lead > researcher] agent 'r': compacted.`,
    ]);
  });
});

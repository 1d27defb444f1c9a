/**
 * A meter provider the application registers after the guard's first model
 * call still receives the guard's metrics. The OpenTelemetry API hands out a
 * no-op meter while no provider is registered (there is no proxy, unlike
 * traces), so instruments made then must be made again once one is.
 */
import { describe, expect, it } from 'vitest';
import { decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { createHarness, summarizingGuard, toolThenAnswerScript } from '../support/agent-harness.js';
import { metricsProbe } from '../support/metrics-probe.js';

describe('OpenTelemetry meter provider registered late', () => {
  it('should export the guard metrics of the calls made after a provider is registered after the first model call', async () => {
    const harness = createHarness({
      window: 8_000,
      ratio: 1.8,
      script: toolThenAnswerScript(3_000),
      plugins: [summarizingGuard()],
    });
    const session = await harness.startSession();
    const compactionsSoFar = async () =>
      decodeUsageRecord((await harness.storedSession(session.id)).state[stateKeysFor('worker').usage]).compactions;

    // The first guarded model calls run with no meter provider registered.
    await harness.runTurns(session.id, 1);
    expect(harness.model.requests.length).toBeGreaterThan(0);
    const before = await compactionsSoFar();
    const probe = metricsProbe().register();

    await harness.runTurns(session.id, 10, { from: 2 });
    const afterRegistration = (await compactionsSoFar()) - before;
    expect(afterRegistration).toBeGreaterThan(0);

    const exported = await probe.exported();
    const counter = exported.find((metric) => metric.descriptor.name === 'gen_ai.context_guard.compactions');
    const total = counter?.dataPoints.reduce((sum, point) => sum + Number(point.value), 0);
    expect(total).toBe(afterRegistration);
    expect(exported.some((metric) => metric.descriptor.name === 'gen_ai.context_guard.context.utilization')).toBe(true);
    await probe.shutdown();
  });
});

import { DataPointType } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { metricsProbe } from '../../test/support/metrics-probe.js';
import { lazyInstruments, SHARE_BUCKETS } from './instruments.js';

describe('lazyInstruments', () => {
  it('should create each instrument of the table, by its kind, unit and description, from the provider registered before the first call', async () => {
    // The getter is made before the SDK is registered, as a module-level table is at import time.
    const meters = lazyInstruments({
      calls: { kind: 'counter', name: 'test.calls', description: 'Calls' },
      latency: { kind: 'histogram', name: 'test.latency', unit: 's', description: 'Latency' },
    } as const);
    const capture = metricsProbe().register();

    meters().calls.add(2);
    meters().latency.record(0.5);
    expect(meters()).toBe(meters());

    const exported = await capture.scopes();
    expect(exported.map((scope) => scope.scope.name)).toEqual(['adk-context-guard']);
    const byName = new Map(exported[0]!.metrics.map((metric) => [metric.descriptor.name, metric]));
    expect(byName.get('test.calls')).toMatchObject({
      dataPointType: DataPointType.SUM,
      descriptor: { description: 'Calls', unit: '' },
      dataPoints: [{ value: 2 }],
    });
    expect(byName.get('test.latency')).toMatchObject({
      dataPointType: DataPointType.HISTOGRAM,
      descriptor: { description: 'Latency', unit: 's' },
      dataPoints: [{ value: { count: 1, sum: 0.5 } }],
    });
    await capture.shutdown();
  });

  it('should make the instruments again when the global meter provider changes, so that a provider registered after the first call receives data', async () => {
    const meters = lazyInstruments({ calls: { kind: 'counter', name: 'test.calls', description: 'Calls' } } as const);
    meters().calls.add(1); // before any provider: the API's no-op meter

    const first = metricsProbe().register();
    meters().calls.add(2);
    expect(meters()).toBe(meters());
    const firstPoints = (await first.exported()).find((metric) => metric.descriptor.name === 'test.calls')?.dataPoints;
    expect(firstPoints?.map((point) => point.value)).toEqual([2]);
    await first.shutdown();

    const second = metricsProbe().register();
    meters().calls.add(3);
    const secondPoints = (await second.exported()).find(
      (metric) => metric.descriptor.name === 'test.calls',
    )?.dataPoints;
    expect(secondPoints?.map((point) => point.value)).toEqual([3]);
    await second.shutdown();
  });

  it("should advise the SDK of a histogram's buckets, so that shares of the window do not all land in one", async () => {
    const meters = lazyInstruments({
      share: { kind: 'histogram', name: 'test.share', unit: '1', description: 'Share', buckets: SHARE_BUCKETS },
    } as const);
    const capture = metricsProbe().register();
    for (const share of [0.15, 0.55, 0.82, 0.97]) meters().share.record(share);
    const metric = (await capture.exported()).find((candidate) => candidate.descriptor.name === 'test.share');
    const buckets = (metric?.dataPoints[0]?.value as { buckets: { boundaries: number[]; counts: number[] } }).buckets;
    expect(buckets.boundaries).toEqual(SHARE_BUCKETS);
    expect(buckets.counts.filter((count) => count > 0)).toEqual([1, 1, 1, 1]);
    await capture.shutdown();
  });
});

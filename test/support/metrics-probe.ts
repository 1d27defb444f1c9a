/**
 * The OpenTelemetry metrics the guard exported, read in a test: an in-memory
 * exporter behind a reader that exports only when asked, installed as the
 * global meter provider, as an application would register its own.
 */
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
  type ScopeMetrics,
} from '@opentelemetry/sdk-metrics';

export interface MetricsProbe {
  /** Installs the probe as the global meter provider (the guard's instruments bind to it on first use). */
  register(): MetricsProbe;
  /** Everything recorded so far (cumulative), by instrumentation scope, after a flush. */
  scopes(): Promise<ScopeMetrics[]>;
  /** Every metric exported so far, after a flush. */
  exported(): Promise<MetricData[]>;
  /** Stops the reader and unregisters the provider. */
  shutdown(): Promise<void>;
}

export function metricsProbe(): MetricsProbe {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when asked: the interval never elapses within a test.
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
  const probe: MetricsProbe = {
    register() {
      metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
      return probe;
    },
    async scopes() {
      await reader.forceFlush();
      return exporter.getMetrics().flatMap((resource) => resource.scopeMetrics);
    },
    async exported() {
      return (await probe.scopes()).flatMap((scope) => scope.metrics);
    },
    async shutdown() {
      await reader.shutdown();
      metrics.disable();
    },
  };
  return probe;
}

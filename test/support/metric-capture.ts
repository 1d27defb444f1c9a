/**
 * An OpenTelemetry SDK meter provider that keeps what it exports in memory, registered globally as
 * an application would register its own: for tests of the plugin's metrics.
 */
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ScopeMetrics,
} from '@opentelemetry/sdk-metrics';

export interface MetricCapture {
  /** Everything recorded so far (cumulative), by instrumentation scope. */
  collect(): Promise<ScopeMetrics[]>;
  /** Stops the reader and unregisters the provider. */
  shutdown(): Promise<void>;
}

export function captureMetrics(): MetricCapture {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when collected: the interval never elapses within a test.
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return {
    collect: async () => {
      await reader.forceFlush();
      return exporter.getMetrics().flatMap((resource) => resource.scopeMetrics);
    },
    shutdown: async () => {
      await reader.shutdown();
      metrics.disable();
    },
  };
}

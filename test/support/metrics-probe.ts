/**
 * The OpenTelemetry metrics the guard exported, read in a test: an in-memory
 * exporter behind a reader that exports only when asked, installed as the
 * global meter provider.
 */
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';

export interface MetricsProbe {
  /** Installs the probe as the global meter provider (the guard's instruments bind to it on first use). */
  register(): MetricsProbe;
  /** Every metric exported so far, after a flush. */
  exported(): Promise<MetricData[]>;
  shutdown(): Promise<void>;
}

export function metricsProbe(): MetricsProbe {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
  const probe: MetricsProbe = {
    register() {
      metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
      return probe;
    },
    async exported() {
      await reader.forceFlush();
      return exporter
        .getMetrics()
        .flatMap((resource) => resource.scopeMetrics)
        .flatMap((scope) => scope.metrics);
    },
    shutdown: () => reader.shutdown(),
  };
  return probe;
}

/**
 * The metric instruments of ContextGuard, declared as tables (name, kind, unit,
 * description) and created on first use, so that a meter provider the
 * application registers after importing the plugin is the one used.
 */
import { metrics, type Counter, type Histogram } from '@opentelemetry/api';

/** The instrumentation scope of every span and metric of the plugin. */
export const TELEMETRY_SCOPE = 'adk-context-guard';

export interface InstrumentSpec {
  readonly kind: 'counter' | 'histogram';
  readonly name: string;
  readonly unit?: string | undefined;
  readonly description: string;
}

type InstrumentOf<S extends InstrumentSpec> = S['kind'] extends 'counter' ? Counter : Histogram;

export type Instruments<T extends Readonly<Record<string, InstrumentSpec>>> = {
  readonly [K in keyof T]: InstrumentOf<T[K]>;
};

function create<T extends Readonly<Record<string, InstrumentSpec>>>(table: T): Instruments<T> {
  const meter = metrics.getMeter(TELEMETRY_SCOPE);
  const made: Record<string, Counter | Histogram> = {};
  for (const [key, { kind, name, unit, description }] of Object.entries(table)) {
    const options = unit === undefined ? { description } : { unit, description };
    made[key] = kind === 'counter' ? meter.createCounter(name, options) : meter.createHistogram(name, options);
  }
  return made as Instruments<T>;
}

/** A getter of the table's instruments, created once, on its first call. */
export function lazyInstruments<T extends Readonly<Record<string, InstrumentSpec>>>(table: T): () => Instruments<T> {
  let made: Instruments<T> | undefined;
  return () => (made ??= create(table));
}

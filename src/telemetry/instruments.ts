/**
 * The metric instruments of ContextGuard, declared as tables (name, kind, unit,
 * description) and created on first use, then made again whenever the global
 * meter provider changes: the API hands out a no-op meter while no provider is
 * registered (unlike traces, it has no proxy), so instruments made before the
 * application registers its provider would otherwise record nothing, silently.
 */
import { metrics, type Counter, type Histogram, type MeterProvider } from '@opentelemetry/api';

/** The instrumentation scope of every span and metric of the plugin. */
export const TELEMETRY_SCOPE = 'adk-context-guard';

interface InstrumentSpec {
  readonly kind: 'counter' | 'histogram';
  readonly name: string;
  readonly unit?: string | undefined;
  readonly description: string;
}

type InstrumentOf<S extends InstrumentSpec> = S['kind'] extends 'counter' ? Counter : Histogram;

type Instruments<T extends Readonly<Record<string, InstrumentSpec>>> = {
  readonly [K in keyof T]: InstrumentOf<T[K]>;
};

function create<T extends Readonly<Record<string, InstrumentSpec>>>(table: T, provider: MeterProvider): Instruments<T> {
  const meter = provider.getMeter(TELEMETRY_SCOPE);
  const made: Record<string, Counter | Histogram> = {};
  for (const [key, { kind, name, unit, description }] of Object.entries(table)) {
    const options = unit === undefined ? { description } : { unit, description };
    made[key] = kind === 'counter' ? meter.createCounter(name, options) : meter.createHistogram(name, options);
  }
  return made as Instruments<T>;
}

/**
 * A getter of the table's instruments, created on its first call and again on
 * the first call after the global meter provider changed (one global read per call).
 */
export function lazyInstruments<T extends Readonly<Record<string, InstrumentSpec>>>(table: T): () => Instruments<T> {
  let made: Instruments<T> | undefined;
  let madeWith: MeterProvider | undefined;
  return () => {
    const provider = metrics.getMeterProvider();
    if (made === undefined || provider !== madeWith) {
      made = create(table, provider);
      madeWith = provider;
    }
    return made;
  };
}

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

/** Buckets of a share of the window: finer toward the threshold and the limit. */
export const SHARE_BUCKETS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1, 1.1];
/** Buckets of request tokens, from small windows to 2M. */
export const TOKEN_BUCKETS = [
  1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 1_000_000, 2_000_000,
];
/** Buckets of seconds: a summary of a few milliseconds (prepared) to minutes (a slow summarizer). */
export const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];

interface InstrumentSpec {
  readonly kind: 'counter' | 'histogram';
  readonly name: string;
  readonly unit?: string | undefined;
  readonly description: string;
  /** A histogram's bucket boundaries, advised to the SDK (its defaults, 0 to 10,000, fit neither ratios nor windows). */
  readonly buckets?: readonly number[] | undefined;
}

type InstrumentOf<S extends InstrumentSpec> = S['kind'] extends 'counter' ? Counter : Histogram;

type Instruments<T extends Readonly<Record<string, InstrumentSpec>>> = {
  readonly [K in keyof T]: InstrumentOf<T[K]>;
};

function create<T extends Readonly<Record<string, InstrumentSpec>>>(table: T, provider: MeterProvider): Instruments<T> {
  const meter = provider.getMeter(TELEMETRY_SCOPE);
  const made: Record<string, Counter | Histogram> = {};
  for (const [key, { kind, name, unit, description, buckets }] of Object.entries(table)) {
    const options = {
      description,
      ...(unit !== undefined && { unit }),
      ...(buckets !== undefined && { advice: { explicitBucketBoundaries: [...buckets] } }),
    };
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

/**
 * What calibration can undercount, over whole sequences of calls: a provider whose count of each
 * content is k × its text (k drawn per content), with the estimator's framing counted or not,
 * the history growing, spans masked or removed, and real counts arriving or not (streaming
 * without usage). The bound checked (docs/design.md, "Calibrating"):
 *
 *   true − calibrated ≤ Σ over removed contents (estimate − true) − (1 − r) × max(0, −growth)
 *
 * where "removed" is what the last request with a real count held and this one does not, r that
 * count over its estimate, growth this estimate minus that one. Nothing removed: never undercounts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../../test/support/arbitraries.js';
import { calibrate, correctionFactor, type CalibrationState } from './calibration.js';

interface Piece {
  readonly id: number;
  readonly text: number;
  readonly framing: number;
  readonly k: number;
}

type Step =
  | { readonly kind: 'append'; readonly text: number; readonly framing: number; readonly k: number }
  | { readonly kind: 'mask'; readonly at: number; readonly text: number; readonly k: number }
  | { readonly kind: 'remove'; readonly at: number }
  | { readonly kind: 'send'; readonly reported: boolean }
  | { readonly kind: 'compact' };

interface World {
  readonly framingCounted: boolean;
  readonly pieces: readonly Piece[];
  readonly state: CalibrationState;
  /** The contents of the last request with a real count (undefined once a compaction cleared it). */
  readonly counted?: readonly Piece[] | undefined;
  readonly nextId: number;
}

const heuristic = (piece: Piece): number => piece.text + piece.framing;
const truth =
  (world: Pick<World, 'framingCounted'>) =>
  (piece: Piece): number =>
    Math.floor(piece.k * piece.text) + (world.framingCounted ? piece.framing : 0);
const sum = (pieces: readonly Piece[], of: (piece: Piece) => number): number =>
  pieces.reduce((total, piece) => total + of(piece), 0);

function stepArbitrary(k: fc.Arbitrary<number>): fc.Arbitrary<Step> {
  return fc.oneof(
    fc.record({
      kind: fc.constant('append' as const),
      text: fc.integer({ min: 0, max: 20_000 }),
      framing: fc.integer({ min: 4, max: 40 }),
      k,
    }),
    fc.record({ kind: fc.constant('mask' as const), at: fc.nat(), text: fc.integer({ min: 5, max: 60 }), k }),
    fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('send' as const), reported: fc.boolean() }),
    fc.record({ kind: fc.constant('compact' as const) }),
  );
}

function estimateOf(world: World): { estimate: number; framing: number } {
  return { estimate: sum(world.pieces, heuristic), framing: sum(world.pieces, (piece) => piece.framing) };
}

/** The world after one step; the pipeline's records as the guard keeps them (usage/provider-feedback.ts, next-usage.ts). */
function apply(world: World, step: Step): World {
  const { pieces, nextId } = world;
  switch (step.kind) {
    case 'append':
      return { ...world, pieces: [...pieces, { ...step, id: nextId }], nextId: nextId + 1 };
    case 'mask': {
      if (pieces.length === 0) return world;
      const at = step.at % pieces.length;
      const placeholder = { id: nextId, text: step.text, framing: pieces[at]!.framing, k: step.k };
      return { ...world, pieces: pieces.map((piece, i) => (i === at ? placeholder : piece)), nextId: nextId + 1 };
    }
    case 'remove':
      return pieces.length === 0 ? world : { ...world, pieces: pieces.filter((_, i) => i !== step.at % pieces.length) };
    case 'send': {
      if (!step.reported) return world;
      const { estimate, framing } = estimateOf(world);
      const real = sum(pieces, truth(world));
      if (estimate <= 0 || real <= 0) return world;
      const state = { ...world.state, realPromptTokens: real, lastEstimate: estimate, lastFraming: framing };
      return { ...world, state, counted: pieces };
    }
    case 'compact': {
      const { factor, calibrated } = correctionFactor(world.state);
      return { ...world, state: calibrated ? { learnedCorrection: factor } : {}, counted: undefined };
    }
  }
}

/** How far below the true count the bound lets calibration be, for the world as it stands. */
function allowedUndercount(world: World): number {
  const { realPromptTokens: real, lastEstimate: last } = world.state;
  const { counted } = world;
  if (real === undefined || last === undefined || counted === undefined) return 0;
  const ratio = real / last;
  if (ratio >= 1) return 0;
  const now = new Set(world.pieces.map((piece) => piece.id));
  const gone = counted.filter((piece) => !now.has(piece.id));
  const growth = estimateOf(world).estimate - last;
  return sum(gone, heuristic) - sum(gone, truth(world)) - (1 - ratio) * Math.max(0, -growth);
}

function run(framingCounted: boolean, steps: readonly Step[], check: (world: World) => void): void {
  const fixed: Piece = { id: 0, text: 1_500, framing: 8, k: 1 };
  let world: World = { framingCounted, pieces: [fixed], state: {}, nextId: 1 };
  for (const step of steps) {
    world = apply(world, step);
    check(world);
  }
}

describe('calibration over a session', () => {
  it('should undercount a provider counting 0.3-1x per content by at most what removed content was overestimated, less (1 - r) × the shrink', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(stepArbitrary(fc.double({ min: 0.3, max: 1, noNaN: true })), { maxLength: 40 }),
        (framingCounted, steps) => {
          run(framingCounted, steps, (world) => {
            const { estimate, framing } = estimateOf(world);
            const calibrated = calibrate(estimate, world.state, 1.5, framing);
            const real = sum(world.pieces, truth(world));
            expect(real - calibrated).toBeLessThanOrEqual(allowedUndercount(world) + 1e-6);
          });
        },
      ),
      PROPERTY_RUNS,
    );
  });

  it('should reach the bound: a span the provider counted at 0.3 removed, content it counts in full appended', () => {
    // Last request: 1,000 counted in full and 1,000 counted at 0.3: 1,300 of 2,000 (r = 0.65).
    // The cheap span is removed and 400 tokens counted in full appended: growth −600.
    // Calibrated 1,300 − 600 × 0.65 = 910; true 1,400; bound (1,000 − 300) − 0.35 × 600 = 490.
    const calibrated = calibrate(1_400, { realPromptTokens: 1_300, lastEstimate: 2_000 });
    expect(calibrated).toBe(910);
    expect(1_400 - calibrated).toBe(490);
  });

  it('should count a request that only grew from the real count, content appended at the factor', () => {
    // Last request: 1,000 counted in full and 1,000 counted at 0.3: 1,300 of 2,000 (r = 0.65); 400 tokens
    // counted in full appended: calibrated 1,300 + 400 = 1,700, the true count, not the estimate 2,400.
    expect(calibrate(2_400, { realPromptTokens: 1_300, lastEstimate: 2_000 })).toBe(1_700);
  });

  it('should give what calibration gave before whenever the provider counts at least the estimate (k ≥ 1, framing counted)', () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary(fc.double({ min: 1, max: 3, noNaN: true })), { maxLength: 40 }), (steps) => {
        run(true, steps, (world) => {
          const { estimate, framing } = estimateOf(world);
          expect(calibrate(estimate, world.state, 1.5, framing)).toBe(ruleBefore(estimate, world.state, framing));
        });
      }),
      PROPERTY_RUNS,
    );
  });
});

/** Calibration as it was before a ratio below 1 was trusted (commit 975a495): the reference. */
function ruleBefore(estimate: number, state: CalibrationState, framing: number): number {
  const { factor } = correctionFactor(state, 1.5, { estimate, framing });
  const { realPromptTokens: real, lastEstimate: last } = state;
  if (real === undefined || last === undefined) return Math.ceil(estimate * factor);
  const growth = estimate - last;
  return Math.ceil(Math.max(estimate * factor, real + growth * (growth >= 0 ? factor : 1)));
}

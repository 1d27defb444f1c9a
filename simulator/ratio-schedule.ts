/**
 * The real tokens-per-(characters/4) ratio at a given turn: fixed, drifting
 * linearly over the session, or stepping at given turns. A provider's true
 * ratio drifts when the content mix changes (prose, then JSON, then code);
 * the guard must follow it from the counts it is given.
 */
import type { RatioSpec } from './scenario-types.js';

export function ratioAt(spec: RatioSpec, turn: number, turns: number): number {
  if (typeof spec === 'number') return spec;
  if ('from' in spec) {
    const progress = turns <= 1 ? 1 : Math.min(1, Math.max(0, (turn - 1) / (turns - 1)));
    return spec.from + (spec.to - spec.from) * progress;
  }
  let ratio = spec.steps[0]?.[1] ?? 1;
  for (const [from, value] of spec.steps) if (turn >= from) ratio = value;
  return ratio;
}

/** A short description for tables: `2.0`, `1.5→3.5`, `1.5|3.5@15|2.0@30`. */
export function describeRatio(spec: RatioSpec): string {
  if (typeof spec === 'number') return spec.toFixed(1);
  if ('from' in spec) return `${spec.from.toFixed(1)}→${spec.to.toFixed(1)}`;
  return spec.steps.map(([turn, ratio], i) => (i === 0 ? ratio.toFixed(1) : `${ratio.toFixed(1)}@${turn}`)).join('|');
}

/**
 * The mark every `ContextGuard` carries, under a registered symbol so that a guard of another copy
 * of the package is recognised too (the runtime finds a guard among a Runner's plugins by it).
 */
export const CONTEXT_GUARD_BRAND = Symbol.for('adk-context-guard.ContextGuard');

/** True for an object that carries the guard's mark. */
export function hasGuardBrand(value: unknown): boolean {
  return typeof value === 'object' && value !== null && CONTEXT_GUARD_BRAND in value;
}

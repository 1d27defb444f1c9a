/**
 * The validator of the options: every invalid value or unknown key throws a
 * `ContextGuardConfigError` at construction that names the field (and, for a
 * misspelt key, the closest valid one).
 *
 * Why not a zod schema (ADK depends on zod 4, so it would cost users nothing): the
 * table already gives range, default and words once, a schema's inferred type
 * would lose the TSDoc IDEs show field by field, and zod's issues would have to be
 * mapped back to these exact messages and "did you mean" hints in every nested
 * object, which is more code than these checks.
 */
import {
  OPTION_NAMES,
  OPTION_TABLE,
  POLICY_OPTION_NAMES,
  type OptionName,
  type OtherOptionName,
} from '../config/option-table.js';
import type { OptionScope, OptionSpec } from '../config/option-spec.js';
import { unknownField } from '../config/unknown-field.js';
import { ContextGuardConfigError } from '../errors.js';
import { bufferAboveHardLimit, bufferTooLarge, thresholdSetBy } from '../budget/compute-budget.js';
import { MAX_BUFFER_SHARE } from '../config/budget-options.js';
import { percent } from '../config/option-spec.js';
import type { AgentPolicy, ContextGuardOptions } from '../options.js';
import { agentEntries } from '../policy/agent-entries.js';
import { checkRange } from './check-range.js';
import { OTHER_CHECKS } from './other-checks.js';

/** Validates one option's value (undefined means unset). */
function checkOption(name: OptionName, value: unknown, prefix: string): void {
  if (value === undefined) return;
  const path = `${prefix}${name}`;
  const spec: OptionSpec = OPTION_TABLE[name];
  if (spec.range.type === 'other') OTHER_CHECKS[name as OtherOptionName](path, value);
  else checkRange(path, value, spec.range);
}

/** Refuses keys no option has (a typo passes silently otherwise in JavaScript), naming the closest valid one. */
function checkKnownKeys(object: object, prefix: string, scope: OptionScope): void {
  const allowed: readonly string[] = scope === 'policy' ? POLICY_OPTION_NAMES : OPTION_NAMES;
  const unknown = unknownField(object as Record<string, unknown>, allowed, 'see docs/configuration.md');
  if (unknown === undefined) return;
  const { key, value, hint } = unknown;
  if ((OPTION_NAMES as readonly string[]).includes(key))
    throw new ContextGuardConfigError(
      `${prefix}${key}`,
      value,
      'is a global option: set it at the top level, not per agent',
    );
  throw new ContextGuardConfigError(`${prefix}${key}`, value, `is not a ContextGuard option (${hint})`);
}

/** Validates one policy; `prefix` names it in errors (`''` or `agents.<name>.`). */
function validatePolicy(policy: AgentPolicy, prefix: string): void {
  if (typeof policy !== 'object' || policy === null)
    throw new ContextGuardConfigError(prefix.replace(/\.$/, '') || 'options', policy, 'must be an object');
  if (prefix !== '') checkKnownKeys(policy, prefix, 'policy');
  for (const name of POLICY_OPTION_NAMES) checkOption(name, policy[name], prefix);
  checkFitsWindow(prefix, policy, policy.contextWindow);
}

/**
 * Buffer and output reserve must each leave room in the window (the agent's own, or the global one), by the
 * rules the budget applies at run time to a window it learns (budget/compute-budget.ts).
 */
function checkFitsWindow(prefix: string, policy: AgentPolicy, window: number | undefined): void {
  if (window === undefined) return;
  const { bufferTokens, reserveOutputTokens, hardLimitRatio } = policy;
  if (reserveOutputTokens !== undefined && reserveOutputTokens >= window)
    throw new ContextGuardConfigError(
      `${prefix}reserveOutputTokens`,
      reserveOutputTokens,
      `must be smaller than the context window (${window})`,
    );
  if (bufferTooLarge(bufferTokens, window))
    throw new ContextGuardConfigError(
      `${prefix}bufferTokens`,
      bufferTokens,
      `must be at most ${percent(MAX_BUFFER_SHARE)} of the context window (${window}); a smaller threshold on purpose is a smaller contextWindow`,
    );
  const conflict = bufferAboveHardLimit({ window, bufferTokens, outputReserve: reserveOutputTokens, hardLimitRatio });
  if (conflict)
    throw new ContextGuardConfigError(
      `${prefix}hardLimitRatio`,
      hardLimitRatio,
      `caps requests at ${conflict.hardLimit} tokens of the context window (${window}), below the threshold ${thresholdSetBy(conflict)} sets (${conflict.threshold}): raise hardLimitRatio to ${Math.ceil((conflict.threshold / window) * 1_000) / 1_000} or more, or raise bufferTokens`,
    );
}
/** Validates all options; throws `ContextGuardConfigError` on the first invalid field or unknown key. */
export function validateOptions(options: ContextGuardOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new ContextGuardConfigError('options', options, 'must be an object');
  checkKnownKeys(options, '', 'global');
  validatePolicy(options, '');
  for (const name of OPTION_NAMES) if (OPTION_TABLE[name].scope === 'global') checkOption(name, options[name], '');
  for (const [agentName, policy] of agentEntries(options.agents)) {
    validatePolicy(policy, `agents.${agentName}.`);
    // The agent's effective buffer and reserve (its own or the global ones) must fit its effective window.
    const effective: AgentPolicy = {
      bufferTokens: policy.bufferTokens ?? options.bufferTokens,
      reserveOutputTokens: policy.reserveOutputTokens ?? options.reserveOutputTokens,
      hardLimitRatio: policy.hardLimitRatio ?? options.hardLimitRatio,
    };
    checkFitsWindow(`agents.${agentName}.`, effective, policy.contextWindow ?? options.contextWindow);
  }
}

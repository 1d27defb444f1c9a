/**
 * One warning per agent, model and cause when the policy's budget options do not mean, under the window
 * in use, what they say (budget/compute-budget.ts applies the rule; this says so): a `bufferTokens` written
 * for a larger window, and a `hardLimitRatio` below the threshold a `bufferTokens` sets. With
 * `contextWindow` both are config errors; the window from the registry, `modelWindows` or a provider's
 * rejection is known only at run time.
 */
import {
  bufferAboveHardLimit,
  bufferTooLarge,
  effectiveBuffer,
  policyBudget,
  thresholdSetBy,
} from '../../budget/compute-budget.js';
import { MAX_BUFFER_SHARE } from '../../config/budget-options.js';
import { percent } from '../../config/option-spec.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import type { GuardLogger, ResolvedPolicy } from '../../options.js';
import type { WindowOrigin } from '../../usage/agent-usage-figures.js';
import { WarnOnce } from './warn-once.js';

const ORIGINS: Record<WindowOrigin, string> = {
  registry: 'from the model registry',
  option: 'from the options',
  learned: "learned from the provider's rejection",
  default: 'assumed for an unknown model',
};

/** The window a warning speaks of; worded only when there is something to say (no closure made on every call). */
function where(model: string, window: number, origin: WindowOrigin): string {
  return `model '${model}''s ${window}-token window (${ORIGINS[origin]})`;
}

export class BudgetWarnings {
  private readonly once: WarnOnce;

  constructor(logger: GuardLogger) {
    this.once = new WarnOnce(logger);
  }

  /** Warns (once per agent, model and cause) about `policy`'s budget under `window`. */
  check(policy: ResolvedPolicy, agent: string, model: string, window: number, origin: WindowOrigin): void {
    const { bufferTokens, bufferRatio, hardLimitRatio } = policy;
    if (bufferTooLarge(bufferTokens, window)) {
      const buffer = effectiveBuffer(window, undefined, bufferRatio);
      // The threshold the budget applies: a set hardLimitRatio or the output reserve can bring it lower still.
      const { threshold } = policyBudget(window, policy, undefined, true);
      this.once.warn(
        `buffer\u0000${agent}\u0000${model}`,
        `${LOG_PREFIX} agent '${agent}': bufferTokens ${bufferTokens} is more than ${percent(MAX_BUFFER_SHARE)} of ${where(model, window, origin)}: ` +
          `taken as written for a larger window, this window's default buffer is used (${buffer}; threshold ${threshold}). ` +
          `Set contextWindow for a smaller threshold on purpose.`,
      );
    }
    // The policy's reserve: a request's larger maxOutputTokens only lowers the threshold it asks for.
    const outputReserve = policy.reserveOutputTokens;
    const conflict = bufferAboveHardLimit({ window, bufferTokens, bufferRatio, outputReserve, hardLimitRatio });
    if (conflict)
      this.once.warn(
        `hard-limit\u0000${agent}\u0000${model}`,
        `${LOG_PREFIX} agent '${agent}': hardLimitRatio ${hardLimitRatio} caps requests at ${conflict.hardLimit} tokens of ${where(model, window, origin)}, ` +
          `below the threshold ${thresholdSetBy(conflict)} sets (${conflict.threshold}): compaction starts at ${conflict.hardLimit}.`,
      );
  }
}

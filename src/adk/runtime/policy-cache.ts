/**
 * Resolved policies by agent name, resolved once (defaults, then global options, then the agent's own).
 */
import type { ContextGuardOptions, ResolvedPolicy } from '../../options.js';
import { optionGiven, resolvePolicy } from '../../policy/resolve-policy.js';
import type { PolicyOptionName } from '../../config/option-table.js';

export class PolicyCache {
  private readonly policies = new Map<string, ResolvedPolicy>();

  constructor(private readonly options: ContextGuardOptions) {}

  of(agentName: string): ResolvedPolicy {
    let policy = this.policies.get(agentName);
    if (!policy) {
      policy = resolvePolicy(this.options, agentName);
      this.policies.set(agentName, policy);
    }
    return policy;
  }

  /** Whether the user gave `name` for `agentName` (not only its default). */
  given(agentName: string, name: PolicyOptionName): boolean {
    return optionGiven(this.options, agentName, name);
  }
}

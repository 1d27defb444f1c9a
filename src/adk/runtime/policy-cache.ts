/**
 * Resolved policies by agent name, resolved once (defaults, then global options, then the agent's own).
 */
import type { ContextGuardOptions, ResolvedPolicy } from '../../options.js';
import { resolvePolicy } from '../../policy/resolve-policy.js';

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
}

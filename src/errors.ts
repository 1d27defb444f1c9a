/**
 * Errors thrown by adk-context-guard.
 *
 * Only configuration errors are thrown to the caller. Failures inside a model
 * callback never throw: they are logged and handled by a documented fallback
 * (see docs/design.md, "Failure policy"), because ADK's PluginManager turns a
 * throwing hook into a failed turn.
 */

const CONFIG_ERROR_BRAND = Symbol.for('adk-context-guard.ContextGuardConfigError');

/** An option passed to `ContextGuard` (or a per-agent policy) is invalid. */
export class ContextGuardConfigError extends Error {
  readonly [CONFIG_ERROR_BRAND] = true;
  /** Dotted path of the offending option, for example `agents.worker.contextWindow`. */
  readonly option: string;
  /** The value that was received. */
  readonly value: unknown;

  /** `owner`: what takes the option, as the message names it (`contextRecallTool()`, say). */
  constructor(option: string, value: unknown, expectation: string, owner = 'ContextGuard') {
    super(`${owner} option '${option}' ${expectation}; received ${describeValue(value)}.`);
    this.name = 'ContextGuardConfigError';
    this.option = option;
    this.value = value;
  }
}

/** True for a `ContextGuardConfigError`, even one from another copy of the package. */
export function isContextGuardConfigError(error: unknown): error is ContextGuardConfigError {
  return typeof error === 'object' && error !== null && CONFIG_ERROR_BRAND in error;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined || value === null) {
    return String(value);
  }
  return Object.prototype.toString.call(value);
}

const PIN_ERROR_BRAND = Symbol.for('adk-context-guard.ContextGuardPinError');

/** A pin was refused: all pins together would exceed the agent's `maxPinnedTokens`. */
export class ContextGuardPinError extends Error {
  readonly [PIN_ERROR_BRAND] = true;
  readonly agentName: string;
  /** Tokens the pins would take with this one, and the cap. */
  readonly tokens: number;
  readonly cap: number;

  constructor(agentName: string, tokens: number, cap: number) {
    super(
      `ContextGuard cannot pin more context for agent '${agentName}': pins would take ~${tokens} tokens, over the cap of ${cap} (maxPinnedTokens).`,
    );
    this.name = 'ContextGuardPinError';
    this.agentName = agentName;
    this.tokens = tokens;
    this.cap = cap;
  }
}

/**
 * Options of tool-output truncation: one exported type documented field by
 * field, its defaults, a validator that names the offending field, and a
 * resolver that gives the limits of one tool. Pure: no ADK imports.
 */
import { isPlainObject } from '../config/plain-object.js';
import { TRUNCATION_FIELD_TABLE } from '../config/truncation-fields.js';
import { unknownField } from '../config/unknown-field.js';
import { ContextGuardConfigError } from '../errors.js';

/**
 * Limits for one tool's result. Every field is optional; unset fields inherit. Each field's TSDoc carries the option
 * table's short text and `@default` (config/option-table.ts, checked by its test).
 */
export interface ToolOutputLimits {
  /**
   * Largest result, in UTF-8 bytes of its JSON text (what the model receives), before it is cut. An integer >= 256
   * (10,240 is 10 KiB). @default 10,240
   */
  maxBytes?: number;
  /** Most lines a string field of the result may have before it is cut. An integer >= 1. @default 256 */
  maxLines?: number;
  /** Lines kept from the start of a string that is cut. An integer >= 0. @default 128 */
  headLines?: number;
  /** Lines kept from the end of a string that is cut. An integer >= 0. @default 128 */
  tailLines?: number;
}

/**
 * Tool-output truncation: `false` turns it off; otherwise limits for every tool,
 * with per-tool overrides (`false` turns it off for that tool).
 *
 * `headLines + tailLines` must be at least 1 and at most `maxLines`, so a string
 * one line over the limit always loses at least one line.
 *
 * @example
 * { maxBytes: 16_384, tools: { read_file: { maxLines: 400, headLines: 300, tailLines: 100 }, get_secret: false } }
 */
export type ToolOutputTruncation =
  | false
  | (ToolOutputLimits & {
      /** Per-tool overrides by tool name, merged over the limits above; `false` leaves that tool alone. @default `{}` */
      tools?: Record<string, false | ToolOutputLimits>;
    });

/** The limits that apply to one tool, every default applied. */
export interface ResolvedToolOutputLimits {
  readonly maxBytes: number;
  readonly maxLines: number;
  readonly headLines: number;
  readonly tailLines: number;
}

const LIMIT_FIELDS = ['maxBytes', 'maxLines', 'headLines', 'tailLines'] as const;
/** The fields of the option itself: the limits and `tools`. */
const OPTION_FIELDS = Object.keys(TRUNCATION_FIELD_TABLE);

/** The defaults of seed 002 (layer 1), from the option table: 10 KiB or 256 lines, keeping the first and last 128 lines. */
export const TOOL_OUTPUT_DEFAULTS: ResolvedToolOutputLimits = Object.freeze({
  maxBytes: TRUNCATION_FIELD_TABLE.maxBytes.default,
  maxLines: TRUNCATION_FIELD_TABLE.maxLines.default,
  headLines: TRUNCATION_FIELD_TABLE.headLines.default,
  tailLines: TRUNCATION_FIELD_TABLE.tailLines.default,
});

/** Each limit's minimum, from the option table's ranges. */
const MINIMUMS: Record<(typeof LIMIT_FIELDS)[number], number> = {
  maxBytes: TRUNCATION_FIELD_TABLE.maxBytes.range.min,
  maxLines: TRUNCATION_FIELD_TABLE.maxLines.range.min,
  headLines: TRUNCATION_FIELD_TABLE.headLines.range.min,
  tailLines: TRUNCATION_FIELD_TABLE.tailLines.range.min,
};

/**
 * Validates a `ToolOutputTruncation` value, including every per-tool override
 * merged over the global limits.
 *
 * @param path how the option is named in errors. @default 'toolOutputTruncation'
 * @throws ContextGuardConfigError naming the field, for example `toolOutputTruncation.tools.read_file.maxBytes`.
 */
export function validateToolOutputTruncation(
  value: unknown,
  path = 'toolOutputTruncation',
): asserts value is ToolOutputTruncation | undefined {
  if (value === undefined || value === false) return;
  if (!isPlainObject(value)) throw new ContextGuardConfigError(path, value, 'must be false or an object of limits');
  refuseUnknownFields(value, OPTION_FIELDS, path, 'a toolOutputTruncation field');
  const global = validateLimits(value, path);
  const merged = mergeLimits(TOOL_OUTPUT_DEFAULTS, global);
  checkCrossRules(merged, path, global);
  const tools = value['tools'];
  if (tools === undefined) return;
  if (!isPlainObject(tools))
    throw new ContextGuardConfigError(`${path}.tools`, tools, 'must be an object keyed by tool name');
  for (const [toolName, override] of Object.entries(tools)) {
    const toolPath = `${path}.tools.${toolName}`;
    if (override === false) continue;
    if (!isPlainObject(override))
      throw new ContextGuardConfigError(toolPath, override, 'must be false or an object of limits');
    refuseUnknownFields(override, LIMIT_FIELDS, toolPath, 'a truncation limit');
    const own = validateLimits(override, toolPath);
    checkCrossRules(mergeLimits(merged, own), toolPath, own);
  }
}

/**
 * Checks limits given whole, as `truncateToolOutput({ limits })` takes them: every field set, each in its range, and
 * `headLines + tailLines` in [1, `maxLines`].
 * @throws ContextGuardConfigError naming the field.
 */
export function validateResolvedLimits(value: unknown, owner: string): asserts value is ResolvedToolOutputLimits {
  const path = 'limits';
  if (!isPlainObject(value)) throw new ContextGuardConfigError(path, value, 'must be an object of limits', owner);
  const missing = LIMIT_FIELDS.find((field) => value[field] === undefined);
  if (missing !== undefined)
    throw new ContextGuardConfigError(
      `${path}.${missing}`,
      undefined,
      'must be set (the limits are given whole)',
      owner,
    );
  refuseUnknownFields(value, LIMIT_FIELDS, path, 'a truncation limit', owner);
  const own = validateLimits(value, path, owner);
  checkCrossRules(mergeLimits(TOOL_OUTPUT_DEFAULTS, own), path, own, owner);
}

/**
 * The limits for `toolName`: defaults, then the global limits, then the tool's
 * own. `undefined` when truncation is off (globally or for this tool).
 * An `undefined` policy means "on, with the defaults".
 *
 * Expects a policy that passed `validateToolOutputTruncation`.
 */
export function resolveToolOutputLimits(
  policy: ToolOutputTruncation | undefined,
  toolName: string,
): ResolvedToolOutputLimits | undefined {
  if (policy === false) return undefined;
  if (policy === undefined) return TOOL_OUTPUT_DEFAULTS;
  const override =
    policy.tools && Object.prototype.hasOwnProperty.call(policy.tools, toolName) ? policy.tools[toolName] : undefined;
  if (override === false) return undefined;
  const global = mergeLimits(TOOL_OUTPUT_DEFAULTS, policy);
  return override ? mergeLimits(global, override) : global;
}

function mergeLimits(base: ResolvedToolOutputLimits, own: ToolOutputLimits): ResolvedToolOutputLimits {
  return {
    maxBytes: own.maxBytes ?? base.maxBytes,
    maxLines: own.maxLines ?? base.maxLines,
    headLines: own.headLines ?? base.headLines,
    tailLines: own.tailLines ?? base.tailLines,
  };
}

/** A misspelt limit (`maxByte`) would leave the default in force without a word: refused, naming the closest field. */
function refuseUnknownFields(
  value: Record<string, unknown>,
  fields: readonly string[],
  path: string,
  what: string,
  owner?: string,
): void {
  const unknown = unknownField(value, fields);
  if (unknown)
    throw new ContextGuardConfigError(
      `${path}.${unknown.key}`,
      unknown.value,
      `is not ${what} (${unknown.hint})`,
      owner,
    );
}

function validateLimits(value: Record<string, unknown>, path: string, owner?: string): ToolOutputLimits {
  for (const field of LIMIT_FIELDS) {
    const received = value[field];
    if (received === undefined) continue;
    if (typeof received !== 'number' || !Number.isSafeInteger(received) || received < MINIMUMS[field]) {
      throw new ContextGuardConfigError(
        `${path}.${field}`,
        received,
        `must be an integer >= ${MINIMUMS[field]}`,
        owner,
      );
    }
  }
  return value;
}

/** Cross-field rules, checked on the merged limits; the error names a field the caller set when possible. */
function checkCrossRules(limits: ResolvedToolOutputLimits, path: string, own: ToolOutputLimits, owner?: string): void {
  const kept = limits.headLines + limits.tailLines;
  const blame =
    own.headLines !== undefined
      ? 'headLines'
      : own.tailLines !== undefined
        ? 'tailLines'
        : own.maxLines !== undefined
          ? 'maxLines'
          : 'headLines';
  if (kept < 1) {
    throw new ContextGuardConfigError(
      `${path}.${blame}`,
      limits[blame],
      'must leave headLines + tailLines >= 1',
      owner,
    );
  }
  if (kept > limits.maxLines) {
    throw new ContextGuardConfigError(
      `${path}.${blame}`,
      limits[blame],
      `must keep headLines + tailLines (${limits.headLines} + ${limits.tailLines}) <= maxLines (${limits.maxLines})`,
      owner,
    );
  }
}

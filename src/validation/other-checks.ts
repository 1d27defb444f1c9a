/**
 * The checks of the options whose range the option table cannot express
 * (objects, functions, models): each refuses a wrong value with a
 * `ContextGuardConfigError` that names the field.
 */
import { OPTION_TABLE, type OtherOptionName } from '../config/option-table.js';
import { isPlainObject } from '../config/plain-object.js';
import { TOOL_FIELD_NAMES, TOOL_FIELD_TABLE } from '../config/tool-fields.js';
import { unknownField } from '../config/unknown-field.js';
import { priceTableProblem } from '../cost/price-table.js';
import { ContextGuardConfigError } from '../errors.js';
import type { GuardLogger } from '../options.js';
import { validateToolOutputTruncation } from '../truncation/policy.js';
import { checkRange } from './check-range.js';

type Check = (path: string, value: unknown) => void;

/** The options whose range the table cannot express; each has its own check. */
export const OTHER_CHECKS: Record<OtherOptionName, Check> = {
  summarizer: checkSummarizer,
  toolOutputTruncation: (path, value) => validateToolOutputTruncation(value, path),
  name: (path, value) => {
    if (typeof value !== 'string' || value.trim().length === 0)
      throw new ContextGuardConfigError(path, value, 'must be a non-empty string');
  },
  agents: (path, value) => {
    // An array would pass as an object and its entries be read as agents named '0', '1', ...
    if (!isPlainObject(value))
      throw new ContextGuardConfigError(
        path,
        value,
        `must be an object keyed by agent name${Array.isArray(value) ? ', not an array' : ''}`,
      );
    refuseEmptyKey(path, value, 'agent');
  },
  modelWindows: (path, value) => {
    if (!isPlainObject(value))
      throw new ContextGuardConfigError(path, value, 'must be an object of { modelName: window }');
    refuseEmptyKey(path, value, 'model');
    for (const [model, window] of Object.entries(value))
      checkRange(`${path}.${model}`, window, OPTION_TABLE.contextWindow.range); // a window, as `contextWindow`
  },
  logger: (path, value) => {
    const logger = value as Partial<Record<keyof GuardLogger, unknown>> | null;
    if (
      typeof logger !== 'object' ||
      logger === null ||
      !(['debug', 'info', 'warn', 'error'] as const).every((level) => typeof logger[level] === 'function')
    ) {
      throw new ContextGuardConfigError(path, value, 'must have debug, info, warn and error methods');
    }
  },
  tokenizer: (path, value) => {
    const tokenizer = value as { name?: unknown; count?: unknown } | null;
    if (typeof tokenizer?.count !== 'function')
      throw new ContextGuardConfigError(path, value, 'must have a count(text) method');
    // Its name is what logs and reports say counted (the Tokenizer type requires it; a JS caller may leave it out).
    if (typeof tokenizer.name !== 'string' || tokenizer.name.length === 0)
      throw new ContextGuardConfigError(
        `${path}.name`,
        tokenizer.name,
        'must be a non-empty string naming the tokenizer',
      );
  },
  prices: (path, value) => {
    const problem = priceTableProblem(value);
    if (problem) throw new ContextGuardConfigError(`${path}${problem.field}`, problem.value, problem.reason);
  },
  onCompaction: checkFunction,
  onToolTruncation: checkFunction,
  tools: checkTools,
};

/** `{ [toolName]: { readOnly? } }`: a field no tool declaration has is refused, naming the closest. */
function checkTools(path: string, value: unknown): void {
  if (!isPlainObject(value)) throw new ContextGuardConfigError(path, value, 'must be an object keyed by tool name');
  for (const [toolName, declaration] of Object.entries(value)) {
    const toolPath = `${path}.${toolName}`;
    if (toolName.length === 0) throw new ContextGuardConfigError(path, value, 'must not have an empty tool name');
    if (!isPlainObject(declaration))
      throw new ContextGuardConfigError(toolPath, declaration, 'must be an object such as { readOnly: true }');
    const unknown = unknownField(declaration, TOOL_FIELD_NAMES);
    if (unknown)
      throw new ContextGuardConfigError(
        `${toolPath}.${unknown.key}`,
        unknown.value,
        `is not a tool declaration (${unknown.hint})`,
      );
    for (const [field, fieldValue] of Object.entries(declaration)) {
      if (fieldValue !== undefined)
        checkRange(`${toolPath}.${field}`, fieldValue, TOOL_FIELD_TABLE[field as keyof typeof TOOL_FIELD_TABLE].range);
    }
  }
}

function checkFunction(path: string, value: unknown): void {
  if (typeof value !== 'function') throw new ContextGuardConfigError(path, value, 'must be a function');
}

function checkSummarizer(path: string, value: unknown): void {
  const ok =
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as { summarize?: unknown }).summarize === 'function' ||
      typeof (value as { generateContentAsync?: unknown }).generateContentAsync === 'function');
  if (!ok)
    throw new ContextGuardConfigError(path, value, 'must be an ADK BaseLlm or a Summarizer ({ name, summarize })');
  const declared = (value as { contextWindow?: unknown }).contextWindow;
  if (declared !== undefined && typeof (value as { summarize?: unknown }).summarize === 'function') {
    checkRange(`${path}.contextWindow`, declared, OPTION_TABLE.summarizerContextWindow.range);
  }
}

/** A blank key names no agent or model (a `prices` key is refused the same way): its settings would apply to none. */
function refuseEmptyKey(path: string, value: Readonly<Record<string, unknown>>, what: string): void {
  const blank = Object.keys(value).find((key) => key.trim().length === 0);
  if (blank !== undefined)
    throw new ContextGuardConfigError(
      `${path}['${blank}']`,
      value[blank],
      `must not have a blank key: it names no ${what}`,
    );
}

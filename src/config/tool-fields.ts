import { BOOLEAN, type OptionSpec } from './option-spec.js';

/**
 * The fields of one entry of the `tools` option, with their range, default and texts (shown in
 * docs/configuration.md under "Per-tool declarations"; the validator reads the names from here).
 */
export const TOOL_FIELD_TABLE = {
  readOnly: {
    range: BOOLEAN,
    default: false,
    short:
      "A call of the tool changes nothing (a search, a read), so a masked result's placeholder may suggest calling it again.",
    long: "A call of the tool changes nothing (a search, a read): calling it again with the same arguments is safe, so a masked result's placeholder may suggest it. Left `false`, the placeholder never does: the tool may create, send or pay for something.",
  },
  reuseResult: {
    range: BOOLEAN,
    default: false,
    short:
      'With `readOnly`: a repeated call is answered from the earlier result the model no longer sees, unless a tool not declared `readOnly` ran since.',
    long: 'With `readOnly` (ignored without it): a call with the same arguments as an earlier one whose result was offloaded, masked or summarized away is answered from that stored result, marked with its age, instead of running the tool, unless a tool not declared `readOnly` was called since in the session (it may have changed what this one reads). For a tool whose answer does not change while the session runs on its own (a document by id, a fixed catalogue), not one that reads what changes (a cart, a stock level, the time): the stored answer would be out of date.',
  },
} as const satisfies Record<string, Omit<OptionSpec, 'scope'>>;

type ToolFieldName = keyof typeof TOOL_FIELD_TABLE;
export const TOOL_FIELD_NAMES = Object.keys(TOOL_FIELD_TABLE) as ToolFieldName[];

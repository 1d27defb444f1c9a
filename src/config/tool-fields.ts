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
} as const satisfies Record<string, Omit<OptionSpec, 'scope'>>;

type ToolFieldName = keyof typeof TOOL_FIELD_TABLE;
export const TOOL_FIELD_NAMES = Object.keys(TOOL_FIELD_TABLE) as ToolFieldName[];

import { integer, other, type OptionSpec } from './option-spec.js';

/** Below this a truncated result cannot hold a marker and any content, so smaller `maxBytes` are refused. */
const MIN_MAX_BYTES = 256;

/**
 * The fields of `toolOutputTruncation` (and of each of its per-tool overrides): range, default
 * and texts; truncation/policy.ts reads its minimums and defaults from here.
 */
export const TRUNCATION_FIELD_TABLE = {
  maxBytes: {
    unit: 'bytes',
    range: integer(MIN_MAX_BYTES),
    default: 10_240,
    short: 'Largest result, in UTF-8 bytes of its JSON text (what the model receives), before it is cut.',
    long: 'Largest result, in UTF-8 bytes of its JSON text (what the model receives), before it is cut; 10,240 is 10 KiB. Smaller than 256, a result could not hold the marker and any content.',
  },
  maxLines: {
    unit: 'lines',
    range: integer(1),
    default: 256,
    short: 'Most lines a string field of the result may have before it is cut.',
    long: 'Most lines a string field of the result may have before it is cut.',
  },
  headLines: {
    unit: 'lines',
    range: integer(0),
    rangeNote: '`headLines + tailLines` in [1, `maxLines`]',
    default: 128,
    short: 'Lines kept from the start of a string that is cut.',
    long: "Lines kept from the start of a string that is cut. With `tailLines`, checked after merging each tool's override over the global limits, so a string one line over the limit always loses at least one line.",
  },
  tailLines: {
    unit: 'lines',
    range: integer(0),
    rangeNote: '`headLines + tailLines` in [1, `maxLines`]',
    default: 128,
    short: 'Lines kept from the end of a string that is cut.',
    long: 'Lines kept from the end of a string that is cut.',
  },
  tools: {
    range: other('`{ [toolName]: false \\| limits }`'),
    defaultText: '`{}`',
    short: 'Per-tool overrides by tool name, merged over the limits above; `false` leaves that tool alone.',
    long: 'Per-tool overrides by exact tool name, merged over the limits above; `false` turns truncation off for that tool.',
  },
} as const satisfies Record<string, Omit<OptionSpec, 'scope'>>;

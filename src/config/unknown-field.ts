/**
 * A key of an object whose keys are fixed names (an option, a tool declaration, truncation
 * limits, a price) that is none of them: JavaScript passes a typo silently, so every validator
 * refuses it with the same hint, the closest valid name.
 */
import { closestName } from './closest-name.js';

interface UnknownField {
  readonly key: string;
  readonly value: unknown;
  /** `did you mean 'name'?`, or `fallback` when no name is close. */
  readonly hint: string;
}

/** The first key of `object` that is none of `fields`, or undefined when every key is one. */
export function unknownField(
  object: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  fallback = `known: ${fields.join(', ')}`,
): UnknownField | undefined {
  const key = Object.keys(object).find((each) => !fields.includes(each));
  if (key === undefined) return undefined;
  const closest = closestName(key, fields);
  return { key, value: object[key], hint: closest === undefined ? fallback : `did you mean '${closest}'?` };
}

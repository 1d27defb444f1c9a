/** At most this many of the app's names are listed in a warning. */
const LISTED_NAMES = 12;

/** `'a', 'b', and 3 more`: the app's names as a warning lists them, `none` when it has none. */
export function listedNames(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const listed = names.slice(0, LISTED_NAMES).map((name) => `'${name}'`);
  const more = names.length > LISTED_NAMES ? `, and ${names.length - LISTED_NAMES} more` : '';
  return `${listed.join(', ')}${more}`;
}

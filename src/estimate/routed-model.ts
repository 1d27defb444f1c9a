/**
 * ADK 2.0's `RoutedLlm` names itself `RoutedLlm[key (model), key (model)]` (unless given a `modelName`), and each
 * call may go to any of its models: the one its router picks, or the next after an error (a failover router). A
 * request must therefore fit the smallest of their windows (the ninth outside trial: a router over an 8k and a 32k
 * model was taken for an unknown model of 128k, and every request over 8k was rejected by the small model, unseen
 * by the guard, before the large one answered it). A model may itself be a `RoutedLlm` (tenth trial): its models
 * count, read the same way.
 */
const ROUTED = /^RoutedLlm\[(.*)\]$/is;
/** Routers inside routers read at most this deep, and names at most this long; past either, a name is not read. */
const MAX_DEPTH = 8;
const MAX_NAME_CHARS = 4_096;

/** The model names a `RoutedLlm`'s own name lists, nested ones flattened, in order; undefined for any other name. */
export function routedMembers(model: string, depth = 0): string[] | undefined {
  if (model.length > MAX_NAME_CHARS || depth >= MAX_DEPTH) return undefined;
  const list = ROUTED.exec(model.trim())?.[1];
  if (list === undefined) return undefined;
  const entries = topLevel(list);
  if (!entries || entries.length === 0) return undefined;
  const members: string[] = [];
  let key = '';
  for (const entry of entries) {
    // A key is the user's: one may hold ", ", and the entry goes on after it.
    const name = modelOf(key + entry);
    key = name === undefined ? `${key}${entry}, ` : '';
    if (name !== undefined) members.push(...(ROUTED.test(name) ? (routedMembers(name, depth + 1) ?? [name]) : [name]));
  }
  return members.length > 0 && key === '' ? members : undefined;
}

/** `list` cut at each ", " outside brackets and parentheses; undefined when they do not pair. */
function topLevel(list: string): string[] | undefined {
  const entries: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const char = list[i];
    if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    if (depth < 0) return undefined;
    if (depth === 0 && char === ',' && list[i + 1] === ' ') {
      entries.push(list.slice(from, i));
      from = i + 2;
    }
  }
  if (depth !== 0) return undefined;
  entries.push(list.slice(from));
  return entries;
}

/** The model of one `key (model)` entry: inside the parentheses that close it; undefined for any other shape. */
function modelOf(entry: string): string | undefined {
  if (!entry.endsWith(')')) return undefined;
  let depth = 0;
  for (let i = entry.length - 1; i >= 0; i--) {
    const char = entry[i];
    if (char === ')' || char === ']') depth++;
    else if (char === '(' || char === '[') depth--;
    if (depth === 0) return i > 0 && entry[i - 1] === ' ' && i < entry.length - 2 ? entry.slice(i + 1, -1) : undefined;
  }
  return undefined;
}

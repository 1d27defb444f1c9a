/**
 * ADK 2.0's `RoutedLlm` names itself `RoutedLlm[key (model), key (model)]` (unless given a `modelName`), and each
 * call may go to any of its models: the one its router picks, or the next after an error (a failover router). A
 * request must therefore fit the smallest of their windows (the ninth outside trial: a router over an 8k and a 32k
 * model was taken for an unknown model of 128k, and every request over 8k was rejected by the small model, unseen
 * by the guard, before the large one answered it).
 */
const ROUTED = /^RoutedLlm\[(.*)\]$/is;
/** One `key (model)` entry of the list; a model name holds no parentheses. */
const MEMBER = /(?:^|, )[^()]*? \(([^()]+)\)(?=, |$)/gy;

/** The model names a `RoutedLlm`'s own name lists, in order; undefined when `model` is not such a name. */
export function routedMembers(model: string): string[] | undefined {
  const list = ROUTED.exec(model.trim())?.[1];
  if (list === undefined) return undefined;
  const members: string[] = [];
  let end = 0;
  MEMBER.lastIndex = 0;
  for (let match = MEMBER.exec(list); match; match = MEMBER.exec(list)) {
    members.push(match[1] as string);
    end = MEMBER.lastIndex;
  }
  // A list not read to its end is not ADK's: trust none of it.
  return members.length > 0 && end === list.length ? members : undefined;
}

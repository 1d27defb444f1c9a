/**
 * The masked view kept across calls (measures kept per position by the measure cache, placeholders
 * built once, per-content framing measured once, a masking extending the observed view) against the
 * view built from scratch: for random histories, edits and sessions, every call's view must be the
 * one a fresh build gives, byte for byte, with the same counts and framing.
 */
import type { Content } from '@google/genai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, modelText, userText } from '../../test/support/builders.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { ContentMeasureCache } from '../estimate/content-measure-cache.js';
import { contentFramingTokens, estimateContentTokens } from '../estimate/estimate-content.js';
import { TokenMemo } from '../estimate/estimate-request.js';
import { fingerprint } from '../estimate/fingerprint.js';
import { applyMask } from './mask-observations.js';
import { MASKED_RESULT_KEY, type MaskHint } from './placeholder-text.js';
import { PlaceholderCache } from './placeholder-cache.js';
import { planMasking, tailTokens } from './plan-masking.js';
import {
  maskedTokensAt,
  maskedView,
  maskingFrom,
  storedView,
  viewTailTokens,
  type ViewSource,
} from './request-view.js';

const TOOLS = ['fetch_logs', 'read_file'];

/** One turn: the user's request, the model's call, the tool's result of `size` characters, the answer. */
function turn(seed: number, size: number): Content[] {
  const name = TOOLS[seed % TOOLS.length] ?? 'fetch_logs';
  const result = functionResponse(name, {
    id: `ORD-${seed}`,
    body: `line ${seed} `.repeat(Math.ceil(size / 8)).slice(0, size),
  });
  return [
    userText(`turn ${seed}`),
    functionCall(name, { seed }),
    inAdkShape(result, seed),
    modelText(`answer ${seed}`),
  ];
}

/**
 * ADK's own shape for some results (`{ id, name, response }`, the id set or present but undefined: the
 * placeholders copied from their fields), the builder's (`{ name, response }`: copied generically) for the rest.
 */
function inAdkShape(result: Content, seed: number): Content {
  if (seed % 3 === 0) return result;
  const response = result.parts?.[0]?.functionResponse;
  const id = seed % 3 === 1 ? `call-${seed}` : undefined;
  return { role: 'user', parts: [{ functionResponse: { id, name: response?.name, response: response?.response } }] };
}

/** Whether two views share a placeholder object (content, part, function response or response) at any position. */
function sharePlaceholderObjects(a: readonly Content[], b: readonly Content[]): boolean {
  return a.some((content, i) => {
    const other = b[i];
    const response = content.parts?.[0]?.functionResponse;
    if (!other || !response?.response || !(MASKED_RESULT_KEY in response.response)) return false;
    const otherResponse = other.parts?.[0]?.functionResponse;
    return (
      content === other ||
      content.parts?.[0] === other.parts?.[0] ||
      response === otherResponse ||
      response.response === otherResponse?.response
    );
  });
}

type Op =
  | { readonly kind: 'append'; readonly seed: number; readonly size: number }
  | { readonly kind: 'edit'; readonly at: number; readonly seed: number }
  | { readonly kind: 'remove'; readonly at: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('append' as const), seed: fc.nat(50), size: fc.nat(900) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), seed: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }) },
);

/** One model call: what changed in the session's history since its last call, and how it is viewed. */
const call = fc.record({
  session: fc.nat(1),
  op,
  covered: fc.nat(),
  maskedUpTo: fc.nat(),
  /** Where the stored mask starts (mask-start.ts), and how much earlier a masking on this call would start. */
  start: fc.nat(),
  earlier: fc.nat(),
  /** How far a masking on this call would go past the stored mask. */
  further: fc.nat(),
  recall: fc.boolean(),
  readOnly: fc.boolean(),
  /** 0: the call measures and builds no view (the kept view is then older than the measure's last snapshot). */
  viewless: fc.nat(5),
});

function applyOp(history: Content[], change: Op): void {
  if (change.kind === 'append') history.push(...turn(change.seed, change.size));
  else if (history.length === 0) return;
  else if (change.kind === 'edit') history[change.at % history.length] = turn(change.seed, 400)[2] as Content;
  else history.splice(change.at % history.length, 1);
}

const hintOf = (recall: boolean, readOnly: boolean): MaskHint => ({
  recallToolName: recall ? 'recall_context' : undefined,
  isReadOnly: (name) => readOnly && name === 'read_file',
});

/** The source as the shell builds it from scratch: nothing kept from earlier calls. */
function freshSource(contents: Content[], covered: number, hint: MaskHint): ViewSource {
  return {
    contents,
    tokens: contents.map((content) => estimateContentTokens(content, characterTokenizer)),
    covered,
    hint,
    memo: new TokenMemo(),
    tokenizer: characterTokenizer,
  };
}

describe('the masked view kept across calls', () => {
  it('should equal the view built from scratch, whatever was appended, edited or removed, in any session', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 30 }), (calls) => {
        const histories: Content[][] = [[], []];
        const placeholders = new PlaceholderCache({ entries: 40 });
        const measures = new ContentMeasureCache();
        const memo = new TokenMemo();
        const lastViews: Content[][] = [];
        for (const each of calls) {
          const history = histories[each.session] as Content[];
          applyOp(history, each.op);
          // ADK hands over a fresh deep copy of the history on every call.
          const contents = structuredClone(history);
          const covered = each.covered % (contents.length + 1);
          const maskedUpTo = each.maskedUpTo % (contents.length + 1);
          const hint = hintOf(each.recall, each.readOnly);
          const scratch = freshSource(structuredClone(history), covered, hint);
          const measured = measures.measure(`s${each.session}`, contents, characterTokenizer);
          expect(measured.fingerprints).toEqual(contents.map((content) => fingerprint(content)));
          if (each.viewless === 0) continue;
          // As the shell does: the memo knows what the measure cache found changed since the last call.
          const kept: ViewSource = {
            ...freshSource(contents, covered, hint),
            memo,
            ...measured,
            placeholders: placeholders.for(`app\u0000user\u0000s${each.session}\u0000worker`, measured),
          };
          // The stored mask's start lies in [covered, maskedUpTo] (0 when there is no mask past the summary).
          const from = maskedUpTo > covered ? covered + (each.start % (maskedUpTo - covered + 1)) : covered;
          const expected = storedView(maskingFrom(scratch, from), maskedUpTo);
          const actual = storedView(maskingFrom(kept, from), maskedUpTo);
          // Contents before the start are sent as they are.
          for (let i = 0; i < from; i++) expect(JSON.stringify(actual.view[i])).toBe(JSON.stringify(contents[i]));
          expect(JSON.stringify(actual.view)).toBe(JSON.stringify(expected.view));
          // Key for key, undefined values included, and every placeholder in objects of this call's own.
          expect(actual.view).toStrictEqual(applyMask(scratch.contents, scratch.tokens, from, maskedUpTo, hint));
          expect(sharePlaceholderObjects(actual.view, lastViews[each.session] ?? [])).toBe(false);
          lastViews[each.session] = actual.view;
          expect(actual.viewTokens).toEqual(expected.viewTokens);
          expect(actual.viewFraming).toEqual(expected.view.map((content) => contentFramingTokens(content)));
          for (let i = from; i < maskedUpTo; i++) expect(maskedTokensAt(kept, i)).toBe(expected.viewTokens[i]);
          // A masking on this call extends the observed view: the same as masking from scratch.
          const upTo = maskedUpTo + (each.further % (contents.length - maskedUpTo + 1));
          const extended = maskedView(maskingFrom(kept, from), upTo, { view: actual, maskedUpTo });
          const fresh = maskedView(maskingFrom(scratch, from), upTo);
          expect(JSON.stringify(extended.view)).toBe(JSON.stringify(fresh.view));
          expect(extended.viewTokens).toEqual(fresh.viewTokens);
          expect(extended.viewFraming).toEqual(fresh.view.map((content) => contentFramingTokens(content)));
          // ... and the observed view is left as it was.
          expect(JSON.stringify(actual.view)).toBe(JSON.stringify(expected.view));
          const at = (index: number): number => maskedTokensAt(scratch, index);
          expect(viewTailTokens(actual, covered)).toBe(tailTokens(scratch.tokens, covered, maskedUpTo, at, from));
          const plan = { contents, tokens: scratch.tokens, covered, maskedUpTo, maskedFrom: from, keepRecent: 1, upTo };
          const meetsTarget = (tokens: number): boolean => tokens < 5_000;
          const maskedTail = viewTailTokens(actual, covered);
          expect(planMasking({ ...plan, start: from, maskedTokensAt: at, meetsTarget, maskedTail })).toEqual(
            planMasking({ ...plan, start: from, maskedTokensAt: at, meetsTarget }),
          );
          // A masking that moves the start earlier masks [start, upTo) afresh, as planned.
          const start = from - (each.earlier % (from - covered + 1));
          const moved = maskedView(maskingFrom(kept, start), upTo);
          const movedFresh = maskedView(maskingFrom(scratch, start), upTo);
          expect(JSON.stringify(moved.view)).toBe(JSON.stringify(movedFresh.view));
          expect(moved.viewTokens).toEqual(movedFresh.viewTokens);
          const movedPlan = planMasking({ ...plan, start, maskedTokensAt: at, meetsTarget, maskedTail });
          if (movedPlan) expect(movedPlan.tokens).toBe(viewTailTokens(movedFresh, covered));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("should measure each content's framing once, as the contents' own framing, call after call", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(50), fc.nat(900)), { minLength: 1, maxLength: 20 }), (turns) => {
        const measures = new ContentMeasureCache();
        const history: Content[] = [];
        for (const [seed, size] of turns) {
          history.push(...turn(seed, size));
          const contents = structuredClone(history);
          const { framing } = measures.measure('s1', contents, characterTokenizer);
          expect(framing).toEqual(contents.map((content) => contentFramingTokens(content)));
        }
      }),
      { numRuns: 50 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import {
  RECALL_DECLARATION_MAX_FIXED_SHARE,
  RECALL_DECLARATION_MAX_WINDOW_SHARE,
  namedCutsOf,
  recallDue,
  shouldDeclareRecall,
} from './declaration.js';

const on = { maskKeepRecent: 1, maskStaleOutputTokens: 2_048 };

describe('shouldDeclareRecall', () => {
  it('should declare the recall tool wherever masking for cost is on and the fixed part leaves the window mostly free', () => {
    expect(shouldDeclareRecall({ policy: on, fixedTokens: 1_000, declarationTokens: 200, window: 32_000 })).toBe(true);
  });

  it('should not spend a small window on the declaration: at most 1% of it', () => {
    const window = 200 / RECALL_DECLARATION_MAX_WINDOW_SHARE;
    expect(shouldDeclareRecall({ policy: on, fixedTokens: 0, declarationTokens: 200, window })).toBe(true);
    expect(shouldDeclareRecall({ policy: on, fixedTokens: 0, declarationTokens: 201, window })).toBe(false);
    expect(shouldDeclareRecall({ policy: on, fixedTokens: 0, declarationTokens: 200, window: 8_000 })).toBe(false);
  });

  it('should keep declaring it once the session sent it, whatever the shares say now, but never with masking off', () => {
    // The thirty-seventh outside trial: an instruction filled from state grew past a quarter of the window.
    const crowded = { policy: on, fixedTokens: 20_000, declarationTokens: 200, window: 32_000 };
    expect(shouldDeclareRecall(crowded)).toBe(false);
    expect(shouldDeclareRecall({ ...crowded, declaredBefore: true })).toBe(true);
    expect(shouldDeclareRecall({ ...crowded, window: 8_000, declaredBefore: true })).toBe(true);
    expect(shouldDeclareRecall({ ...crowded, policy: { ...on, maskKeepRecent: 0 }, declaredBefore: true })).toBe(false);
  });

  it('should not declare it where masking for cost is off', () => {
    for (const policy of [
      { ...on, maskStaleOutputTokens: 0 },
      { ...on, maskKeepRecent: 0 },
    ])
      expect(shouldDeclareRecall({ policy, fixedTokens: 0, declarationTokens: 200, window: 200_000 })).toBe(false);
  });

  it('should not crowd a window that is mostly fixed text: the bound counts the declaration itself', () => {
    const bound = 32_000 * RECALL_DECLARATION_MAX_FIXED_SHARE;
    expect(shouldDeclareRecall({ policy: on, fixedTokens: bound - 200, declarationTokens: 200, window: 32_000 })).toBe(
      true,
    );
    expect(shouldDeclareRecall({ policy: on, fixedTokens: bound - 199, declarationTokens: 200, window: 32_000 })).toBe(
      false,
    );
  });
});

describe('recallDue', () => {
  const none = { storedRewrite: false, namedCuts: 0, rewritesNow: false };

  it('should not send the recall tool while nothing in the session refers to it', () => {
    expect(recallDue(none)).toBe(false);
  });

  it('should send it from the call that masks or summarizes, and on every call while a summary or mask is stored', () => {
    expect(recallDue({ ...none, rewritesNow: true })).toBe(true);
    expect(recallDue({ ...none, storedRewrite: true })).toBe(true);
  });

  it('should send it once a tool result was cut and stored with a handle that names it', () => {
    expect(recallDue({ ...none, namedCuts: 1 })).toBe(true);
  });

  it('should keep sending it once the session sent it: the model may call it again', () => {
    expect(recallDue({ ...none, declaredBefore: true })).toBe(true);
  });
});

describe('namedCutsOf', () => {
  it("should read the named cuts, and take a record of an earlier release's (no `named`) as all named (review 38)", () => {
    expect(namedCutsOf({ count: 3, named: 1 })).toBe(1);
    expect(namedCutsOf({ count: 3, named: 0 })).toBe(0);
    expect(namedCutsOf({ count: 2, last: {} })).toBe(2);
    expect(namedCutsOf(undefined)).toBe(0);
    expect(namedCutsOf('garbage')).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { startsFreshChain } from './fresh-chain.js';
import { interactionsCall, interactionsMode } from './interactions-mode.js';
import { EMPTY_USAGE } from '../usage/stored-usage.js';
import { withServerChain } from '../usage/server-chain.js';

const NOTHING = { compacted: false, masked: false, shrunk: false, rejectedBefore: false };

describe('interactionsMode', () => {
  it('should tell the mode from a chained request or from the model', () => {
    expect(interactionsMode({ previousInteractionId: 'i-1' })).toBe(true);
    expect(interactionsMode({}, { useInteractionsApi: true })).toBe(true);
    expect(interactionsMode({ previousInteractionId: '' }, { useInteractionsApi: false })).toBe(false);
    expect(interactionsMode({})).toBe(false);
  });

  it('should say whether the call continues a chain', () => {
    expect(interactionsCall({}, { useInteractionsApi: true })).toEqual({ chained: false });
    expect(interactionsCall({ previousInteractionId: 'i-1' })).toEqual({ chained: true });
    expect(interactionsCall({}, {})).toBeUndefined();
  });
});

describe('startsFreshChain', () => {
  it('should start a fresh chain when a chained call changes what the model is shown, or after an overflow', () => {
    const chained = { chained: true };
    expect(startsFreshChain(chained, NOTHING)).toBe(false);
    expect(startsFreshChain(chained, { ...NOTHING, compacted: true })).toBe(true);
    expect(startsFreshChain(chained, { ...NOTHING, masked: true })).toBe(true);
    expect(startsFreshChain(chained, { ...NOTHING, shrunk: true })).toBe(true);
    expect(startsFreshChain(chained, { ...NOTHING, rejectedBefore: true })).toBe(true);
  });

  it('should leave a call that already starts a chain, and any call outside the mode, as it is', () => {
    expect(startsFreshChain({ chained: false }, { ...NOTHING, compacted: true })).toBe(false);
    expect(startsFreshChain(undefined, { ...NOTHING, compacted: true })).toBe(false);
  });
});

describe('withServerChain', () => {
  it('should keep the chain estimate and count fresh chains in the mode, and clear them outside it', () => {
    const first = withServerChain(EMPTY_USAGE, { interactions: true, calibrated: 3_000, fresh: false });
    expect(first).toMatchObject({ interactionsApi: true, serverChainTokens: 3_000, freshChains: 0 });
    const fresh = withServerChain(first, { interactions: true, calibrated: 900, fresh: true });
    expect(fresh).toMatchObject({ serverChainTokens: 900, freshChains: 1 });
    const off = withServerChain(fresh, { interactions: false, calibrated: 500, fresh: false });
    expect(off.interactionsApi).toBeUndefined();
    expect(off.serverChainTokens).toBeUndefined();
    expect(off.freshChains).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { PREPARED_APPLIED } from '../preparation/prepared-summary.js';
import { wastedPreparation, type ClaimSettling } from './wasted-preparation.js';

const settling = (fields: Partial<ClaimSettling>): ClaimSettling => ({
  claimed: true,
  applied: false,
  dropped: undefined,
  stored: false,
  preparing: false,
  ...fields,
});

describe('wastedPreparation', () => {
  it('should count a claimed preparation the call settles without applying it, with why', () => {
    expect(wastedPreparation(settling({ dropped: 'the summary it extends is no longer the stored one' }))).toBe(
      'the summary it extends is no longer the stored one',
    );
    // Review 31: another replica stored its own summary, or claimed anew, before the maker looked.
    expect(wastedPreparation(settling({ stored: true }))).toBe('another summary was stored before it was applied');
    expect(wastedPreparation(settling({ preparing: true }))).toBe('a new preparation replaced it');
  });

  it('should not count one applied, one already the stored summary, one left in force, or no claim at all', () => {
    expect(wastedPreparation(settling({ applied: true, stored: true }))).toBeUndefined();
    expect(wastedPreparation(settling({ dropped: PREPARED_APPLIED }))).toBeUndefined();
    expect(wastedPreparation(settling({}))).toBeUndefined();
    // Review 30: a replica dropping a preparation whose claim another already settled counts nothing again.
    expect(
      wastedPreparation(settling({ claimed: false, dropped: 'the summary it extends is no longer the stored one' })),
    ).toBeUndefined();
  });
});

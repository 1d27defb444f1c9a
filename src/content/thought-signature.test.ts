import { describe, expect, it } from 'vitest';
import type { Part } from '@google/genai';
import { EDITED_PART_SIGNATURE, withEditedSignature } from './thought-signature.js';

describe('the signature of an edited part', () => {
  it("should be Google's documented bytes, base64 as a part's signature is sent", () => {
    expect(Buffer.from(EDITED_PART_SIGNATURE, 'base64').toString('utf8')).toBe('skip_thought_signature_validator');
  });

  it('should replace only the signature of a part that was signed and changed', () => {
    const signed: Part = { text: 'a', thoughtSignature: 'c2lnbmVk' };
    expect(withEditedSignature(signed, { ...signed, text: 'b' }).thoughtSignature).toBe(EDITED_PART_SIGNATURE);
    expect(withEditedSignature(signed, signed)).toBe(signed);
    const unsigned: Part = { text: 'a' };
    expect(withEditedSignature(unsigned, { text: 'b' }).thoughtSignature).toBeUndefined();
  });
});

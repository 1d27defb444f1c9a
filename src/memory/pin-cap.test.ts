import { describe, expect, it } from 'vitest';
import { pinCapFor } from './fit-pins.js';
import { pinCapIn } from './pin-cap.js';

describe('pinCapIn', () => {
  it('should take the cap under the request window when there is one', () => {
    expect(pinCapIn({ request: 8_000, lastSeen: 200_000, configured: 100_000, fallback: 128_000 }, undefined)).toBe(
      pinCapFor(8_000, undefined),
    );
  });

  it('should fall back to the window last seen, then the configured one, then the assumed one', () => {
    expect(pinCapIn({ lastSeen: 50_000, configured: 100_000, fallback: 128_000 }, 1_000)).toBe(
      pinCapFor(50_000, 1_000),
    );
    expect(pinCapIn({ configured: 100_000, fallback: 128_000 }, undefined)).toBe(pinCapFor(100_000, undefined));
    expect(pinCapIn({ fallback: 128_000 }, undefined)).toBe(pinCapFor(128_000, undefined));
  });
});

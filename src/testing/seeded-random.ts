/**
 * The one pseudo-random generator of the test toolkit, the simulator and the bench: a
 * Park-Miller generator (multiplier 48,271, modulus 2^31 - 1). Same seed, same sequence, on
 * every machine; the simulator's scenario data come from it, so `next` must never change.
 */
const MODULUS = 0x7fffffff;

export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = (Math.abs(Math.floor(seed)) % MODULUS) + 1;
  }
  /** The next integer in [1, 2^31 - 2]. */
  next(): number {
    this.state = (this.state * 48_271) % MODULUS;
    return this.state;
  }
  /** A float in [0, 1). */
  unit(): number {
    return (this.next() - 1) / (MODULUS - 1);
  }
  /** An integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.unit() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.next() % items.length] as T;
  }
  /** `digits` lowercase hexadecimal digits. */
  hex(digits: number): string {
    let out = '';
    for (let i = 0; i < digits; i++) out += '0123456789abcdef'[this.int(16)];
    return out;
  }
}

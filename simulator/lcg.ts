/** A small linear congruential generator: same seed, same output, on every machine. */
export class Lcg {
  private state: number;
  constructor(seed: number) {
    this.state = (Math.abs(Math.floor(seed)) % 0x7fffffff) + 1;
  }
  next(): number {
    this.state = (this.state * 48_271) % 0x7fffffff;
    return this.state;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.next() % items.length] as T;
  }
}

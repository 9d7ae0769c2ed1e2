/** The small interfaces the domain depends on. Implementations: store/, market/, and the ones below. */
export interface Clock {
  now(): Date;
}

export interface Ids {
  /** A new unique id with a readable prefix, e.g. `ord_…`. */
  next(prefix: string): string;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move: starts at `start` and only moves when told. */
export class ManualClock implements Clock {
  #t: number;
  constructor(start = Date.parse('2026-01-01T00:00:00Z')) { this.#t = start; }
  now() { return new Date(this.#t); }
  advance(ms: number) { this.#t += ms; }
  set(d: Date) { this.#t = d.getTime(); }
}

/**
 * Tells the delivery worker that deliveries may have become due, so it claims at once instead of at its
 * next poll: `nudge` after a commit that may have written events (a change answered by the API, a replay,
 * an endpoint enabled). A nudge is relayed to the other instances when the store has a way to (PostgreSQL:
 * NOTIFY, `relayTo`); `heard` is a nudge from elsewhere, not relayed again. Only a hint: the worker still
 * polls, so a nudge lost (another instance's, while its listening connection is down) costs one poll.
 */
export class WebhookWakes {
  #count = 0;
  readonly #listeners = new Set<() => void>();
  #relay: (() => void) | null = null;

  /** Nudges so far: a worker that notes it before claiming knows whether one came during the claim. */
  get count(): number {
    return this.#count;
  }

  nudge = (): void => {
    this.#relay?.();
    this.heard();
  };

  heard = (): void => {
    this.#count++;
    for (const l of [...this.#listeners]) l();
  };

  subscribe(l: () => void): () => void {
    this.#listeners.add(l);
    return () => {
      this.#listeners.delete(l);
    };
  }

  relayTo(relay: (() => void) | null): void {
    this.#relay = relay;
  }
}

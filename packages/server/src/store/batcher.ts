/**
 * Coalesces the same read or write made by requests running at the same moment into one statement
 * ("smart batching"): a key waits at most until the event loop's current I/O has been handled, and
 * no longer than a batch in flight. An idle service sends each key alone, at once; a busy one sends
 * what arrived together in one round trip, so the cost of a round trip is shared instead of repeated.
 *
 * `run` answers every key of a batch, in order; a key answered with `Failed` fails alone. When `run`
 * throws, every key of that batch fails with its error: a batch is never half-answered.
 */
export class Failed {
  constructor(readonly error: unknown) {}
}

export class Batcher<K, V> {
  readonly #queue: { key: K; resolve: (v: V) => void; reject: (e: unknown) => void }[] = [];
  #scheduled = false;
  #inFlight = 0;

  constructor(
    private readonly run: (keys: K[]) => Promise<(V | Failed)[]>,
    private readonly opts: { maxBatch: number; maxInFlight: number },
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.#queue.push({ key, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0 || this.#inFlight >= this.opts.maxInFlight) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#flush();
    });
  }

  #flush(): void {
    while (this.#queue.length > 0 && this.#inFlight < this.opts.maxInFlight) {
      const batch = this.#queue.splice(0, this.opts.maxBatch);
      this.#inFlight++;
      this.run(batch.map((b) => b.key))
        .then((values) => {
          if (values.length !== batch.length) throw new Error(`a batch of ${batch.length} was answered with ${values.length}`);
          batch.forEach((b, i) => {
            const v = values[i]!;
            if (v instanceof Failed) b.reject(v.error);
            else b.resolve(v);
          });
        })
        .catch((e: unknown) => batch.forEach((b) => b.reject(e)))
        .finally(() => {
          this.#inFlight--;
          this.#schedule();
        });
    }
  }
}

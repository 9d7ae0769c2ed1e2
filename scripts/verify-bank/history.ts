/**
 * What the clients saw. Every creating request is registered with a signature that identifies what it
 * would create (a quoteId, a txid, a unique label or reason…); when it ends, its `201` id is kept, or it
 * is marked lost (no answer: it may have been carried out). The checker then asks the database: every
 * `201` id exists; every row that no `201` announced matches a lost or in-flight request.
 */
export type Created = 'order' | 'withdrawal' | 'declaration' | 'destination' | 'deposit' | 'adjustment';
export const CREATED: Created[] = ['order', 'withdrawal', 'declaration', 'destination', 'deposit', 'adjustment'];

export interface Pending {
  kind: Created;
  sig: string;
}

export class History {
  readonly created = new Map<Created, Map<string, string>>(CREATED.map((k) => [k, new Map()]));
  readonly inFlight = new Map<number, Pending>();
  readonly lost: Pending[] = [];
  /** Operator decisions that answered 200, per request id. */
  readonly decisions = new Map<string, { approved: number; rejected: number }>();
  /** Per operation: how many times each status (or `lost`/`refused`) came back. */
  readonly outcomes = new Map<string, Map<string, number>>();
  readonly violations: string[] = [];
  ops = 0;
  #next = 0;

  begin(kind: Created, sig: string): number {
    const t = this.#next++;
    this.inFlight.set(t, { kind, sig });
    return t;
  }

  /** The request ended: `id` when it answered 201, 'lost' when no answer came, null for any other answer. */
  end(token: number, result: { id: string } | 'lost' | null): void {
    const p = this.inFlight.get(token);
    if (!p) return;
    this.inFlight.delete(token);
    if (result === 'lost') this.lost.push(p);
    else if (result) {
      const seen = this.created.get(p.kind)!;
      if (seen.has(result.id)) this.violate(`${p.kind} ${result.id} was announced by two different 201s`);
      seen.set(result.id, p.sig);
    }
  }

  decided(id: string, how: 'approved' | 'rejected'): void {
    const d = this.decisions.get(id) ?? { approved: 0, rejected: 0 };
    d[how]++;
    this.decisions.set(id, d);
    if (d.approved + d.rejected > 1)
      this.violate(`request ${id} was decided twice with 200 (approved ${d.approved}, rejected ${d.rejected})`);
  }

  count(op: string, result: string): void {
    this.ops++;
    const m = this.outcomes.get(op) ?? new Map<string, number>();
    m.set(result, (m.get(result) ?? 0) + 1);
    this.outcomes.set(op, m);
  }

  violate(msg: string): void {
    this.violations.push(msg);
  }

  /** Signatures that may have created a row unseen: lost requests and those still in flight. */
  unseenAllowance(kind: Created): Map<string, number> {
    const m = new Map<string, number>();
    for (const p of [...this.lost, ...this.inFlight.values()]) if (p.kind === kind) m.set(p.sig, (m.get(p.sig) ?? 0) + 1);
    return m;
  }

  /** A copy of the ids announced so far (taken before a snapshot: each of them must be in it). */
  snapshotCreated(): Map<Created, Map<string, string>> {
    return new Map([...this.created].map(([k, v]) => [k, new Map(v)]));
  }
}

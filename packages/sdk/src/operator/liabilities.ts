import type { LiabilitiesSnapshot as WireSnapshot } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

export type LiabilitiesSnapshot = Amounts<WireSnapshot>;

/** Proof of liabilities (docs/transparency.md): snapshots of what the platform owes, their published roots and totals. */
export class OperatorLiabilities {
  constructor(private readonly t: Transport) {}

  /** Takes a snapshot now (admin); it becomes the published one. */
  async takeSnapshot(opts: WriteOptions = {}): Promise<LiabilitiesSnapshot> {
    return (
      await this.t.request<LiabilitiesSnapshot>(
        { method: 'POST', path: '/liabilities/snapshots', body: {}, ...keyOf(opts) },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }

  /** The latest snapshots, newest first. */
  async snapshots(p: { limit?: number } = {}): Promise<LiabilitiesSnapshot[]> {
    return (await this.t.get<LiabilitiesSnapshot[]>('/liabilities/snapshots', p.limit === undefined ? undefined : { limit: p.limit })).data;
  }
}

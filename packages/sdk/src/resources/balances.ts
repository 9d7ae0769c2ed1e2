import type { Balance as WireBalance } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';

/** One row per asset: `amountMinor` is what is available; `heldMinor` backs pending requests. */
export type Balance = Amounts<WireBalance>;

export class BalancesResource {
  constructor(private readonly t: Transport) {}

  /** `GET /api/v1/balances` (needs `portal:read`). */
  async list(): Promise<Balance[]> {
    return (await this.t.get<Balance[]>('/balances')).data;
  }
}

import type { Transport } from '../http.ts';
import type { WriteOptions } from '../action-key.ts';
import type { Deposit } from './deposits.ts';

export interface SandboxDepositParams {
  assetSymbol: string;
  /** Absent: the network of the asset's deposit wallet. */
  network?: string;
  amountMinor: bigint;
  /** Absent: the service makes one up. A txid is recorded once (a repeat is a 409). */
  txid?: string;
}

/**
 * What only the sandbox offers (docs/sandbox.md); every call is a 404 against production. Magic amounts need
 * no call: an order's base amount or a withdrawal's amount ending in 1111 completes, 2222 is rejected,
 * 3333 fails, and a declaration ending in 1111 is matched, all within seconds.
 */
export class SandboxResource {
  constructor(private readonly t: Transport) {}

  /**
   * `POST /api/v1/sandbox/deposits` (`portal:deposit`): money arrives at the asset's deposit wallet. A
   * declaration of exactly that amount is credited (`state: 'credited'`); otherwise it waits, `unattributed`.
   * It carries an Idempotency-Key (the caller's, or a fresh one, the same on every retry), so a lost answer is
   * re-sent without recording the arrival twice.
   */
  async deposit(p: SandboxDepositParams, opts: WriteOptions = {}): Promise<Deposit> {
    const body = {
      assetSymbol: p.assetSymbol,
      amountMinor: p.amountMinor,
      ...(p.network !== undefined ? { network: p.network } : {}),
      ...(p.txid !== undefined ? { txid: p.txid } : {}),
    };
    return (await this.t.write<Deposit>({ method: 'POST', path: '/sandbox/deposits', body }, opts, true)).data;
  }
}

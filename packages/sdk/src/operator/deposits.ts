import type { OperatorDepositRecord } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { Page } from '../paginate.ts';
import { listPage } from '../resources/list.ts';
import { enc } from './organizations.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

export type OperatorDeposit = Amounts<OperatorDepositRecord>;

/** Arrivals: recorded once per txid (a repeat is a 409), matched by exact amount, or credited by hand. */
export class OperatorDeposits {
  constructor(private readonly t: Transport) {}

  async record(
    p: { assetSymbol: string; network: string; amountMinor: bigint; txid: string; reference?: string },
    opts: WriteOptions = {},
  ): Promise<OperatorDeposit> {
    return (
      await this.t.request<OperatorDeposit>({ method: 'POST', path: '/deposits', body: p, ...keyOf(opts) }, { resendWhenUnknown: true })
    ).value.data;
  }

  async attribute(id: string, organizationId: string, opts: WriteOptions = {}): Promise<OperatorDeposit> {
    return (
      await this.t.request<OperatorDeposit>(
        { method: 'POST', path: `/deposits/${enc(id)}/attribute`, body: { organizationId }, ...keyOf(opts) },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }

  async get(id: string): Promise<OperatorDeposit> {
    return (await this.t.get<OperatorDeposit>(`/deposits/${enc(id)}`)).data;
  }

  list(q: { state?: 'credited' | 'unattributed'; page?: number; limit?: number } = {}): Promise<Page<OperatorDeposit>> {
    return listPage<OperatorDeposit>(this.t, '/deposits', q, { state: q.state });
  }
}

import type {
  RegisterBankDestination as WireRegister, Withdrawal as WireWithdrawal, WithdrawalDestination as WireDestination,
} from '@cambio/contract';
import { DestinationAlreadyRegisteredError, LostResponseError, type CambioError } from '../errors.ts';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { ListParams, Page } from '../paginate.ts';
import { creationOf, foundReply, type Creation } from './creation.ts';
import { iterateList, listPage } from './list.ts';

export type WithdrawalDestination = WireDestination;
export type Withdrawal = Amounts<WireWithdrawal>;
export type RegisterBankDestinationParams = WireRegister;

export interface CreateWithdrawalParams {
  /** A destination whose `usable` is true. */
  destinationId: string;
  assetSymbol: string;
  /** The market's decimals for the asset, as a response reported them (a mismatch is a 422). */
  assetDecimals: number;
  amountMinor: bigint;
}

export class WithdrawalsResource {
  /** Withdrawals this client already returned: never mistaken for the result of a later lost call. */
  private readonly known = new Set<string>();

  constructor(private readonly t: Transport, private readonly clockSkewMs: number) {}

  /** `GET /api/v1/withdrawals/destinations`: every destination, masked; read `usable`. */
  async destinations(): Promise<WithdrawalDestination[]> {
    return (await this.t.get<WithdrawalDestination[]>('/withdrawals/destinations')).data;
  }

  /**
   * `POST /api/v1/withdrawals/destinations/bank`. A repeat answers 409, so a lost response is re-sent;
   * a 409 on that resend means the first went through, and the destination with the same label and
   * asset registered since the call started is returned (`found_after_timeout`).
   */
  async registerBankDestination(p: RegisterBankDestinationParams): Promise<Creation<WithdrawalDestination>> {
    const since = this.t.serverNow() - this.clockSkewMs;
    const r = await this.t.request<WithdrawalDestination>({ method: 'POST', path: '/withdrawals/destinations/bank', body: p }, {
      resendWhenUnknown: true,
      afterRefusal: async (refusal) => {
        if (!(refusal instanceof DestinationAlreadyRegisteredError)) return undefined;
        const all = await this.destinations();
        const d = all.find((x) => x.label === p.label && x.assetSymbol === p.assetSymbol && Date.parse(x.createdAt) >= since);
        return d ? foundReply(d) : undefined;
      },
    });
    return creationOf(r);
  }

  /**
   * `POST /api/v1/withdrawals`. Not safe to repeat (spec: Repeated calls §4): when a response never
   * arrives (timeout, broken connection, 500/502/504), the SDK reads `GET /withdrawals` for a request
   * with the same destination, asset and amount created since the call started (less `clockSkewMs`).
   * Found: it is returned with outcome `found_after_timeout` and nothing is sent again. Not found:
   * the request is sent again (`resent_after_timeout`). If the read fails as well, a
   * LostResponseError is thrown and nothing is re-sent.
   */
  async create(p: CreateWithdrawalParams): Promise<Creation<Withdrawal>> {
    const since = this.t.serverNow() - this.clockSkewMs;
    const body = { destinationId: p.destinationId, assetSymbol: p.assetSymbol, assetDecimals: p.assetDecimals, amountMinor: p.amountMinor };
    const r = await this.t.request<Withdrawal>({ method: 'POST', path: '/withdrawals', body }, {
      resendWhenUnknown: false,
      beforeResend: async (lost) => {
        const w = await this.findCreatedSince(p, since, lost);
        return w ? foundReply(w) : undefined;
      },
    });
    this.known.add(r.value.data.id);
    return creationOf(r);
  }

  private async findCreatedSince(p: CreateWithdrawalParams, since: number, lost: CambioError): Promise<Withdrawal | undefined> {
    try {
      for await (const w of this.iterate({ limit: 100 })) {
        if (Date.parse(w.createdAt) < since) return undefined; // newest first: nothing older can be ours
        if (this.known.has(w.id)) continue;
        if (w.destinationId === p.destinationId && w.money.assetSymbol === p.assetSymbol && w.money.amountMinor === p.amountMinor) return w;
      }
      return undefined;
    } catch (e) {
      throw new LostResponseError({
        status: lost.status, code: 'sdk.lost_response_unresolved', traceId: lost.traceId, method: lost.method, path: lost.path,
        message: 'the withdrawal request got no response and GET /withdrawals failed too; read the list before trying again',
        cause: e,
      });
    }
  }

  /** `GET /api/v1/withdrawals`: one page, newest first. */
  list(params: ListParams = {}): Promise<Page<Withdrawal>> {
    return listPage<Withdrawal>(this.t, '/withdrawals', params);
  }

  iterate(opts: { limit?: number } = {}): AsyncGenerator<Withdrawal, void, undefined> {
    return iterateList<Withdrawal>(this.t, '/withdrawals', opts);
  }
}

import type {
  DepositDeclaration as WireDeclaration,
  DepositRecord as WireDeposit,
  DepositState,
  DepositWallet as WireWallet,
} from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { ListParams, Page } from '../paginate.ts';
import { creationOf, foundReply, type Creation } from './creation.ts';
import { filterQuery, idPath, iterateList, listPage, type CreatedFilters } from './list.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

export type DepositWallet = WireWallet;
export type DepositDeclaration = Amounts<WireDeclaration>;
export type Deposit = Amounts<WireDeposit>;

/** Filters of `GET /api/v1/deposits`. */
export interface DepositFilters extends CreatedFilters {
  state?: DepositState;
}

export interface DeclareDepositParams {
  assetSymbol: string;
  /** The market's decimals for the asset, as a response reported them (a mismatch is a 422). */
  assetDecimals: number;
  /** About what will be sent; the answer's `expectedAmountMinor` is the exact figure to send. */
  declaredAmountMinor: bigint;
}

export class DepositsResource {
  constructor(private readonly t: Transport) {}

  /** `GET /api/v1/deposits/wallets`: read before each deposit, never cached (spec rule 6). Send on `network` only. */
  async wallets(): Promise<DepositWallet[]> {
    return (await this.t.get<DepositWallet[]>('/deposits/wallets')).data;
  }

  /**
   * `POST /api/v1/deposits/declarations`. Protected against repeats (a second one is a 409), so a
   * lost response is re-sent; after a lost attempt, a refusal of the resend (409 already open, or any
   * other 4xx) and the end of the retries make the SDK read the open declaration, returned with outcome
   * `found_after_timeout` when it is the one asked for (same asset and declared amount). When that read
   * fails, or finds nothing after the retries ran out, a LostResponseError says the outcome is unknown.
   */
  async declare(p: DeclareDepositParams, opts: WriteOptions = {}): Promise<Creation<DepositDeclaration>> {
    const body = { assetSymbol: p.assetSymbol, assetDecimals: p.assetDecimals, declaredAmountMinor: p.declaredAmountMinor };
    const r = await this.t.request<DepositDeclaration>(
      { method: 'POST', path: '/deposits/declarations', body, ...keyOf(opts) },
      {
        resendWhenUnknown: true,
        what: 'deposit declaration',
        readBack: async () => {
          const open = await this.openDeclaration();
          const same = open && open.assetSymbol === p.assetSymbol && open.declaredAmountMinor === p.declaredAmountMinor;
          return same ? foundReply(open) : undefined;
        },
      },
    );
    return creationOf(r);
  }

  /** `GET /api/v1/deposits/open-declaration`: the open declaration, or null when none is open. */
  async openDeclaration(): Promise<DepositDeclaration | null> {
    return (await this.t.get<DepositDeclaration | null>('/deposits/open-declaration')).data;
  }

  /**
   * `POST /api/v1/deposits/declarations/:id/cancel`: an open declaration becomes `cancelled` and stops
   * matching at once; cancelling it again answers the same, so a lost answer is simply resent. A matched
   * or expired one is a 409.
   */
  async cancelDeclaration(id: string, opts: WriteOptions = {}): Promise<DepositDeclaration> {
    return (
      await this.t.request<DepositDeclaration>(
        { method: 'POST', path: idPath('/deposits/declarations', id, '/cancel'), ...keyOf(opts) },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }

  /** `GET /api/v1/deposits`: one page of deposits that arrived, newest first. */
  list(params: ListParams & DepositFilters = {}): Promise<Page<Deposit>> {
    return listPage<Deposit>(this.t, '/deposits', params, filterQuery(params));
  }

  iterate(opts: { limit?: number } & DepositFilters = {}): AsyncGenerator<Deposit, void, undefined> {
    return iterateList<Deposit>(this.t, '/deposits', opts, filterQuery(opts));
  }

  /** `GET /api/v1/deposits/:id`: one deposit that arrived for the organization. */
  async get(id: string): Promise<Deposit> {
    return (await this.t.get<Deposit>(idPath('/deposits', id))).data;
  }
}

import type {
  RegisterBankDestination as WireRegister,
  RegisterCryptoDestination as WireRegisterCrypto,
  Withdrawal as WireWithdrawal,
  WithdrawalDestination as WireDestination,
  WithdrawalState,
} from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { ListParams, Page } from '../paginate.ts';
import { creationOf, foundReply, type Creation } from './creation.ts';
import { filterQuery, findCreatedSince, idPath, iterateList, listPage, type CreatedFilters } from './list.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

export type WithdrawalDestination = WireDestination;
export type Withdrawal = Amounts<WireWithdrawal>;
export type RegisterBankDestinationParams = WireRegister;
export type RegisterCryptoDestinationParams = WireRegisterCrypto;

/** Filters of `GET /api/v1/withdrawals`. */
export interface WithdrawalFilters extends CreatedFilters {
  state?: WithdrawalState;
}

export interface CreateWithdrawalParams {
  /** A destination whose `usable` is true. */
  destinationId: string;
  assetSymbol: string;
  /** The market's decimals for the asset, as a response reported them (a mismatch is a 422). */
  assetDecimals: number;
  amountMinor: bigint;
}

/** `client.destinations`: the organization's withdrawal destinations, bank accounts and crypto addresses. */
export class DestinationsResource {
  constructor(private readonly w: WithdrawalsResource) {}
  /** Every destination, newest first (`kind`, and for an address its `network` and whole `address`). */
  list(): Promise<WithdrawalDestination[]> {
    return this.w.destinations();
  }
  createBank(p: RegisterBankDestinationParams, opts: WriteOptions = {}): Promise<Creation<WithdrawalDestination>> {
    return this.w.registerBankDestination(p, opts);
  }
  createCrypto(p: RegisterCryptoDestinationParams, opts: WriteOptions = {}): Promise<Creation<WithdrawalDestination>> {
    return this.w.registerCryptoDestination(p, opts);
  }
}

export class WithdrawalsResource {
  /** Withdrawals this client already returned: never mistaken for the result of a later lost call. */
  private readonly known = new Set<string>();

  constructor(
    private readonly t: Transport,
    private readonly clockSkewMs: number,
  ) {}

  /** `GET /api/v1/withdrawals/destinations`: every destination, masked; read `usable`. */
  async destinations(): Promise<WithdrawalDestination[]> {
    return (await this.t.get<WithdrawalDestination[]>('/withdrawals/destinations')).data;
  }

  /**
   * `POST /api/v1/withdrawals/destinations/bank`. A repeat answers 409, so a lost response is re-sent.
   * After a lost attempt, a refusal of the resend (409 already registered, or any other 4xx) and the end
   * of the retries make the SDK look for a destination with the same label and asset registered since
   * the call started (`found_after_timeout`). That read needs `portal:read`; when it fails, or finds
   * nothing after the retries ran out, a LostResponseError says the outcome is unknown.
   */
  async registerBankDestination(p: RegisterBankDestinationParams, opts: WriteOptions = {}): Promise<Creation<WithdrawalDestination>> {
    return this.#register('bank', p, opts);
  }

  /**
   * `POST /api/v1/withdrawals/destinations/crypto`: an address on a network the platform pays the asset
   * out on. 422 `destinations.invalid_address`, `destinations.network_not_supported` or
   * `destinations.kind_mismatch`; a lost response is handled as for a bank destination.
   */
  async registerCryptoDestination(p: RegisterCryptoDestinationParams, opts: WriteOptions = {}): Promise<Creation<WithdrawalDestination>> {
    return this.#register('crypto', p, opts);
  }

  async #register(
    kind: 'bank' | 'crypto',
    p: { label: string; assetSymbol: string },
    opts: WriteOptions,
  ): Promise<Creation<WithdrawalDestination>> {
    const startedLocal = Date.now();
    const r = await this.t.request<WithdrawalDestination>(
      { method: 'POST', path: `/withdrawals/destinations/${kind}`, body: p, ...keyOf(opts) },
      {
        resendWhenUnknown: true,
        what: `${kind} destination registration`,
        readBack: async () => {
          const all = await this.destinations();
          // The bound on the server's clock, with the offset this very answer gave.
          const since = this.t.toServerTime(startedLocal) - this.clockSkewMs;
          const d = all.find((x) => x.label === p.label && x.assetSymbol === p.assetSymbol && Date.parse(x.createdAt) >= since);
          return d ? foundReply(d) : undefined;
        },
      },
    );
    return creationOf(r);
  }

  /**
   * `POST /api/v1/withdrawals`. Not safe to repeat (spec: Repeated calls §4): when a response never
   * arrives (timeout, broken connection, 500/502/504), the SDK reads `GET /withdrawals` for a request
   * with the same destination, asset and amount created since the call started (by the server's clock
   * as that read reports it, less `clockSkewMs`). Found: it is returned with outcome
   * `found_after_timeout` and nothing is sent again. Not found: the request is sent again
   * (`resent_after_timeout`). When the retries run out after a lost attempt, the list is read one
   * final time; still nothing, or the read fails (it needs `portal:read`): a LostResponseError is
   * thrown and nothing more is sent. Read `withdrawals.list()` before deciding to try again.
   */
  async create(p: CreateWithdrawalParams, opts: WriteOptions = {}): Promise<Creation<Withdrawal>> {
    const startedLocal = Date.now();
    const body = { destinationId: p.destinationId, assetSymbol: p.assetSymbol, assetDecimals: p.assetDecimals, amountMinor: p.amountMinor };
    const r = await this.t.request<Withdrawal>(
      { method: 'POST', path: '/withdrawals', body, ...keyOf(opts) },
      {
        resendWhenUnknown: false,
        what: 'withdrawal',
        readBack: async () => {
          const w = await findCreatedSince(
            this.t,
            this.iterate({ limit: 100 }),
            startedLocal,
            this.clockSkewMs,
            (x) =>
              !this.known.has(x.id) &&
              x.destinationId === p.destinationId &&
              x.money.assetSymbol === p.assetSymbol &&
              x.money.amountMinor === p.amountMinor,
          );
          return w ? foundReply(w) : undefined;
        },
      },
    );
    this.known.add(r.value.data.id);
    return creationOf(r);
  }

  /** `GET /api/v1/withdrawals`: one page, newest first. */
  list(params: ListParams & WithdrawalFilters = {}): Promise<Page<Withdrawal>> {
    return listPage<Withdrawal>(this.t, '/withdrawals', params, filterQuery(params));
  }

  /** `GET /api/v1/withdrawals/:id`: one withdrawal, to poll its state. */
  async get(id: string): Promise<Withdrawal> {
    return (await this.t.get<Withdrawal>(idPath('/withdrawals', id))).data;
  }

  /**
   * `POST /api/v1/withdrawals/:id/cancel`: a withdrawal still `pending_approval` becomes `cancelled` and
   * its hold is released; a decided one is a 409. A lost answer is resent under the same Idempotency-Key.
   */
  async cancel(id: string, opts: WriteOptions = {}): Promise<Withdrawal> {
    return (
      await this.t.request<Withdrawal>(
        { method: 'POST', path: idPath('/withdrawals', id, '/cancel'), ...keyOf(opts) },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }

  iterate(opts: { limit?: number } & WithdrawalFilters = {}): AsyncGenerator<Withdrawal, void, undefined> {
    return iterateList<Withdrawal>(this.t, '/withdrawals', opts, filterQuery(opts));
  }
}

import type { LedgerEntry as WireLedgerEntry } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { ListParams, Page } from '../paginate.ts';
import { filterQuery, iterateList, listPage, type CreatedFilters } from './list.ts';

/** One movement of one account; `amountMinor` is signed. */
export type LedgerEntry = Amounts<WireLedgerEntry>;

/** Filters of `GET /api/v1/ledger` and of its CSV export. */
export interface LedgerFilters extends CreatedFilters {
  assetSymbol?: string;
}

export class LedgerResource {
  constructor(private readonly t: Transport) {}

  /** `GET /api/v1/ledger`: one page, newest first, optionally one asset and a creation window. */
  list(params: ListParams & LedgerFilters = {}): Promise<Page<LedgerEntry>> {
    return listPage<LedgerEntry>(this.t, '/ledger', params, filterQuery(params));
  }

  /** Every movement, newest first: `for await (const e of cambio.ledger.iterate())`. */
  iterate(opts: { limit?: number } & LedgerFilters = {}): AsyncGenerator<LedgerEntry, void, undefined> {
    return iterateList<LedgerEntry>(this.t, '/ledger', opts, filterQuery(opts));
  }

  /**
   * `GET /api/v1/ledger.csv`: the whole filtered ledger as an RFC 4180 CSV file, oldest first, with the
   * amount in the asset's units and in minimum units (the text as the server wrote it; save it as is).
   */
  async csv(filters: LedgerFilters = {}): Promise<string> {
    return (
      await this.t.request<string>(
        { method: 'GET', path: '/ledger.csv', query: filterQuery(filters), accept: 'text/csv' },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }
}

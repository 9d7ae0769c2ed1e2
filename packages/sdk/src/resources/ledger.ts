import type { LedgerEntry as WireLedgerEntry } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { ListParams, Page } from '../paginate.ts';
import { iterateList, listPage } from './list.ts';

/** One movement of one account; `amountMinor` is signed. */
export type LedgerEntry = Amounts<WireLedgerEntry>;

export class LedgerResource {
  constructor(private readonly t: Transport) {}

  /** `GET /api/v1/ledger`: one page, newest first. */
  list(params: ListParams = {}): Promise<Page<LedgerEntry>> {
    return listPage<LedgerEntry>(this.t, '/ledger', params);
  }

  /** Every movement, newest first: `for await (const e of cambio.ledger.iterate())`. */
  iterate(opts: { limit?: number } = {}): AsyncGenerator<LedgerEntry, void, undefined> {
    return iterateList<LedgerEntry>(this.t, '/ledger', opts);
  }
}

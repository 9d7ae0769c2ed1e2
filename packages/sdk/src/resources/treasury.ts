import type { BalanceHistory as WireBalanceHistory, ReportLanguage, StatementFormat, Valuation as WireValuation } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';

/** Each balance and its estimated value in the organization's reporting currency (amounts as bigint). */
export type Valuation = Amounts<WireValuation>;
/** Each asset's closing total at the end of each day (UTC). */
export type BalanceHistory = Amounts<WireBalanceHistory>;

export class ValuationResource {
  constructor(private readonly t: Transport) {}

  /**
   * `GET /api/v1/valuation` (`portal:read`): an estimate at the rate a quote gives now, each value truncated
   * to the reporting currency's decimals; `unpriced` names the assets left out of `totalValueMinor`.
   */
  async get(): Promise<Valuation> {
    return (await this.t.get<Valuation>('/valuation')).data;
  }

  /** `GET /api/v1/balances/history?days=` (`portal:read`; 1–366 days, 30 by default). */
  async history(days?: number): Promise<BalanceHistory> {
    return (await this.t.get<BalanceHistory>('/balances/history', days === undefined ? undefined : { days })).data;
  }
}

export interface StatementOptions<F extends StatementFormat> {
  format: F;
  /** The statement's language; absent: the organization's choice, else the client's. */
  lang?: ReportLanguage;
}

export class StatementsResource {
  /** `base`: the path the statements hang from, empty for the client's own (the operator's: `/organizations/{id}`). */
  constructor(
    private readonly t: Transport,
    private readonly base = '',
  ) {}

  /**
   * `GET /api/v1/statements/{assetSymbol}/{YYYY-MM}` (`portal:read`): one asset's statement of one month
   * (UTC): the CSV's text, or the PDF's bytes. A malformed or future month is `422`
   * `statements.month_malformed` / `statements.month_in_future`; an unlisted asset `422 market.asset_not_listed`.
   */
  download(assetSymbol: string, month: string, opts: StatementOptions<'csv'>): Promise<string>;
  download(assetSymbol: string, month: string, opts: StatementOptions<'pdf'>): Promise<Uint8Array>;
  download(assetSymbol: string, month: string, opts?: { lang?: ReportLanguage }): Promise<string>;
  async download(
    assetSymbol: string,
    month: string,
    opts: { format?: StatementFormat; lang?: ReportLanguage } = {},
  ): Promise<string | Uint8Array> {
    const format = opts.format ?? 'csv';
    const path = `${this.base}/statements/${encodeURIComponent(assetSymbol)}/${encodeURIComponent(month)}`;
    const accept = format === 'pdf' ? 'application/pdf' : 'text/csv';
    return (
      await this.t.request<string | Uint8Array>(
        { method: 'GET', path, query: { format, lang: opts.lang }, accept, binary: format === 'pdf' },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }
}

import type { Exchange } from 'ccxt';
import type { Logger } from 'pino';
import { add, ceilToMinor, fromMinor, readDecimal, toDecimalText } from '../../domain/market/decimal-text.ts';
import type { Clock } from '../../domain/ports.ts';
import type { CryptoPayouts, CryptoWithdrawalOutcome, CryptoWithdrawalRequest, CryptoWithdrawalView } from '../../usecases/ports.ts';
import type { VenueWithdrawalReport, WithdrawalApi, WithdrawNetwork } from './adapter.ts';
import { classifyVenueError } from './errors.ts';
import type {
  VenueWithdrawalRow,
  VenueWithdrawalSettlement,
  VenueWithdrawalsRepository,
  VenueWithdrawalState,
} from '../../usecases/withdrawals/venue-withdrawals-repository.ts';

type Row = VenueWithdrawalRow;
const OPEN: VenueWithdrawalState[] = ['new', 'sending', 'unknown', 'processing'];

// Binance's withdrawal statuses (binance.ts): ended well, ended without sending, still under way.
const COMPLETED = 6;
const ENDED_UNSENT = new Set([1, 3, 5]);
/** How many times, and how far apart, the history is read right after sending, before the background task takes over. */
const FOLLOW_READS = 4;
const FOLLOW_PAUSE_MS = 250;
const STATUS_NAMES: Record<number, string> = {
  0: 'email_sent',
  1: 'cancelled',
  2: 'awaiting_approval',
  3: 'rejected',
  4: 'processing',
  5: 'failure',
  6: 'completed',
};

/** Network names the platform accepts (crypto-destination.ts) as the venue's own (Binance's) codes. */
const VENUE_NETWORKS: Record<string, string> = {
  BITCOIN: 'BTC',
  ETHEREUM: 'ETH',
  ERC20: 'ETH',
  BEP20: 'BSC',
  ARB: 'ARBITRUM',
  OP: 'OPTIMISM',
  POLYGON: 'MATIC',
  AVALANCHE: 'AVAXC',
};

export interface CcxtWithdrawalsOptions {
  recvWindowMs: number;
  leaseMs: number;
  owner: string;
  logger?: Logger | undefined;
  /** The venue answered (its health). */
  onAnswer: () => void;
  /** A venue request failed: counted and shown by kind. */
  onError: (where: string, err: unknown) => void;
}

/**
 * Crypto withdrawals sent by the venue account (docs/market.md "Crypto withdrawals at the venue"). One
 * row per withdrawal in `venue_withdrawals` (migrations/060), keyed by the withdrawal's id, which is also
 * the venue's withdraw order id. The row is written `sending` before the request leaves; a crash or a
 * lost answer leaves it so, and the next attempt looks the withdrawal up by its id instead of sending
 * it: it is sent again only once the venue says it has none and the first request's recvWindow has
 * passed (it can no longer arrive). The venue takes its network fee out of the amount sent, so it is
 * asked for the amount plus the fee and the client receives exactly the amount. A lease lets one
 * instance at a time work on a row. The address is never logged.
 */
export class CcxtWithdrawals implements CryptoPayouts {
  constructor(
    private readonly ex: Exchange,
    private readonly api: WithdrawalApi,
    private readonly rows: VenueWithdrawalsRepository,
    private readonly clock: Clock,
    private readonly opts: CcxtWithdrawalsOptions,
  ) {}

  views(ids: string[]): Promise<Map<string, CryptoWithdrawalView>> {
    return this.rows.views(ids);
  }

  async send(r: CryptoWithdrawalRequest): Promise<CryptoWithdrawalOutcome | null> {
    let row = await this.#get(r.withdrawalId);
    if (row && !OPEN.includes(row.state)) return this.#outcomeOf(row, r.assetDecimals);
    if (!row) {
      const created = await this.#create(r);
      if (created === 'retry') return null;
      if (typeof created === 'object') return created;
    }
    const now = this.clock.now();
    row = await this.#claim(r.withdrawalId, now);
    if (!row) {
      const cur = await this.#get(r.withdrawalId);
      return cur && !OPEN.includes(cur.state) ? this.#outcomeOf(cur, r.assetDecimals) : null;
    }
    try {
      return await this.#work(row, r.assetDecimals);
    } catch (err) {
      await this.#release(row.withdrawalId);
      throw err;
    }
  }

  /** Reads the venue's fee for the network and writes the row `new`; a failure when the venue does not withdraw there. */
  async #create(r: CryptoWithdrawalRequest): Promise<'retry' | 'created' | CryptoWithdrawalOutcome> {
    const network = VENUE_NETWORKS[r.network.toUpperCase()] ?? r.network.toUpperCase();
    let n: WithdrawNetwork | null;
    try {
      n = await this.api.network(this.ex, r.assetSymbol, network);
      this.opts.onAnswer();
    } catch (err) {
      this.opts.onError('withdraw_fee', err);
      return 'retry';
    }
    if (!n || !n.enabled) return { completed: false, reason: `the venue does not withdraw ${r.assetSymbol} on ${r.network}` };
    const amount = fromMinor(r.amount, r.assetDecimals);
    await this.rows.create(
      {
        withdrawalId: r.withdrawalId,
        venue: this.ex.id,
        coin: r.assetSymbol,
        network,
        address: r.address,
        memo: r.memo,
        amountText: toDecimalText(add(amount, n.fee)) ?? '',
        feeText: toDecimalText(n.fee) ?? '0',
        recvWindowMs: this.opts.recvWindowMs,
      },
      this.clock.now(),
    );
    return 'created';
  }

  async #work(row: Row, decimals: number): Promise<CryptoWithdrawalOutcome | null> {
    if (row.state !== 'new') {
      // Sent before: ask the venue what became of it.
      let found: VenueWithdrawalReport | null;
      try {
        found = await this.api.byOrderId(this.ex, row.coin, row.withdrawalId);
        this.opts.onAnswer();
      } catch (err) {
        this.opts.onError('withdraw_lookup', err);
        await this.#settle(row.withdrawalId, { state: row.state === 'processing' ? 'processing' : 'unknown' });
        return null;
      }
      if (found) return this.#record(row, found, decimals);
      const late = this.clock.now().getTime() > (row.sentAt?.getTime() ?? 0) + row.recvWindowMs + 1000;
      if (row.state === 'processing' || !late) {
        await this.#settle(row.withdrawalId, { state: row.state === 'processing' ? 'processing' : 'unknown' });
        return null;
      }
    }
    const sentAt = this.clock.now();
    if (!(await this.#markSending(row.withdrawalId, sentAt))) return null;
    let venueId: string;
    try {
      venueId = await this.api.apply(this.ex, {
        coin: row.coin,
        network: row.network,
        address: row.address,
        memo: row.memo,
        amountText: row.amountText,
        withdrawOrderId: row.withdrawalId,
      });
      this.opts.onAnswer();
    } catch (err) {
      const c = classifyVenueError(err);
      this.opts.onError('withdraw', err);
      if (c.kind === 'refused') {
        const reason = `the venue refused the withdrawal: ${c.reason}`;
        await this.#settle(row.withdrawalId, { state: 'failed', reason });
        return { completed: false, reason };
      }
      this.opts.logger?.warn({ withdrawalId: row.withdrawalId, detail: c.reason }, 'venue withdrawal outcome unknown: it is looked up');
      // Looked up by its id at once (a dropped connection after the venue recorded it), never sent again here.
      const seen = await this.#follow(row, decimals, 2);
      if (seen !== undefined) return seen;
      await this.#settle(row.withdrawalId, { state: 'unknown', reason: c.reason });
      return null;
    }
    // Accepted: it is followed in the venue's history until it completes there with its txid (a few reads
    // now: a venue that completes at once answers the approval completed; later, the background task).
    const seen = await this.#follow(row, decimals, FOLLOW_READS);
    if (seen !== undefined) return seen;
    await this.#settle(row.withdrawalId, { state: 'processing', venueWithdrawalId: venueId });
    return null;
  }

  /**
   * Reads the venue's history for the withdrawal up to `reads` times, a moment apart, while it is not
   * there or still under way: its outcome once it ended (null once recorded as processing), undefined
   * when the venue never showed it (the row is left for the caller to settle).
   */
  async #follow(row: Row, decimals: number, reads: number): Promise<CryptoWithdrawalOutcome | null | undefined> {
    let last: VenueWithdrawalReport | null = null;
    for (let i = 0; i < reads; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, FOLLOW_PAUSE_MS));
      try {
        last = await this.api.byOrderId(this.ex, row.coin, row.withdrawalId);
        this.opts.onAnswer();
      } catch (err) {
        this.opts.onError('withdraw_lookup', err);
        continue;
      }
      if (last && (last.status === COMPLETED || ENDED_UNSENT.has(last.status))) break;
    }
    return last ? this.#record(row, last, decimals) : undefined;
  }

  async #record(row: Row, rep: VenueWithdrawalReport, decimals: number): Promise<CryptoWithdrawalOutcome | null> {
    const status = STATUS_NAMES[rep.status] ?? String(rep.status);
    const fee = (rep.fee && toDecimalText(rep.fee)) ?? row.feeText;
    if (rep.status === COMPLETED && rep.txid !== '') {
      const done = { state: 'completed' as const, venueWithdrawalId: rep.id, venueStatus: status, txid: rep.txid, feeText: fee };
      await this.#settle(row.withdrawalId, done);
      return this.#outcomeOf({ ...row, ...done }, decimals);
    }
    if (ENDED_UNSENT.has(rep.status)) {
      const reason = `the venue ended the withdrawal ${status}${rep.info ? `: ${rep.info}` : ''}`;
      await this.#settle(row.withdrawalId, { state: 'failed', venueWithdrawalId: rep.id, venueStatus: status, reason });
      return { completed: false, reason };
    }
    await this.#settle(row.withdrawalId, { state: 'processing', venueWithdrawalId: rep.id, venueStatus: status });
    return null;
  }

  #outcomeOf(row: Row, decimals: number): CryptoWithdrawalOutcome | null {
    if (row.state === 'completed' && row.txid)
      return {
        completed: true,
        txid: row.txid,
        feeMinor: ceilToMinor(readDecimal(row.feeText, 'withdrawal fee'), decimals),
        venue: this.ex.id,
        venueReference: row.venueWithdrawalId ?? '',
      };
    if (row.state === 'failed') return { completed: false, reason: row.reason ?? 'the venue did not send the withdrawal' };
    return null;
  }

  #get(id: string): Promise<Row | null> {
    return this.rows.get(id);
  }

  #claim(id: string, now: Date): Promise<Row | null> {
    return this.rows.claim(id, this.opts.owner, now, new Date(now.getTime() + this.opts.leaseMs));
  }

  #markSending(id: string, at: Date): Promise<boolean> {
    return this.rows.markSending(id, this.opts.owner, at);
  }

  #settle(id: string, v: VenueWithdrawalSettlement): Promise<void> {
    return this.rows.settle(id, this.opts.owner, this.clock.now(), v);
  }

  #release(id: string): Promise<void> {
    return this.rows.release(id, this.opts.owner);
  }
}

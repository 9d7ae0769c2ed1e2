import { sql } from 'kysely';
import type {
  CryptoWithdrawalView,
  VenueWithdrawalInit,
  VenueWithdrawalRow,
  VenueWithdrawalSettlement,
  VenueWithdrawalsRepository,
  VenueWithdrawalState,
} from '../usecases/withdrawals/venue-withdrawals-repository.ts';
import type { Db } from './db.ts';

const OPEN: VenueWithdrawalState[] = ['new', 'sending', 'unknown', 'processing'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const toRow = (r: any): VenueWithdrawalRow => ({
  withdrawalId: r.withdrawal_id,
  coin: r.coin,
  network: r.network,
  address: r.address,
  memo: r.memo,
  amountText: r.amount_text,
  feeText: r.fee_text,
  state: r.state,
  attempts: r.attempts,
  sentAt: r.sent_at,
  recvWindowMs: r.recv_window_ms,
  venueWithdrawalId: r.venue_withdrawal_id,
  txid: r.txid,
  reason: r.reason,
});

/** `venue_withdrawals` (migrations/060): crypto withdrawals sent by the venue account, one row each, leased while worked on. */
export class VenueWithdrawalsStore implements VenueWithdrawalsRepository {
  constructor(private readonly db: Db) {}

  async get(id: string): Promise<VenueWithdrawalRow | null> {
    const r = await this.db.selectFrom('venue_withdrawals').selectAll().where('withdrawal_id', '=', id).executeTakeFirst();
    return r ? toRow(r) : null;
  }

  async create(init: VenueWithdrawalInit, at: Date): Promise<void> {
    await this.db
      .insertInto('venue_withdrawals')
      .values({
        withdrawal_id: init.withdrawalId,
        venue: init.venue,
        coin: init.coin,
        network: init.network,
        address: init.address,
        memo: init.memo,
        amount_text: init.amountText,
        fee_text: init.feeText,
        state: 'new',
        attempts: 0,
        sent_at: null,
        recv_window_ms: init.recvWindowMs,
        venue_withdrawal_id: null,
        venue_status: null,
        txid: null,
        reason: null,
        lease_owner: null,
        lease_until: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('withdrawal_id').doNothing())
      .execute();
  }

  async claim(id: string, owner: string, now: Date, until: Date): Promise<VenueWithdrawalRow | null> {
    const r = await this.db
      .updateTable('venue_withdrawals')
      .set({ lease_owner: owner, lease_until: until })
      .where('withdrawal_id', '=', id)
      .where('state', 'in', OPEN)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returningAll()
      .executeTakeFirst();
    return r ? toRow(r) : null;
  }

  async markSending(id: string, owner: string, at: Date): Promise<boolean> {
    const r = await this.db
      .updateTable('venue_withdrawals')
      .set({ state: 'sending', sent_at: at, attempts: sql`attempts + 1`, updated_at: at })
      .where('withdrawal_id', '=', id)
      .where('lease_owner', '=', owner)
      .returning('withdrawal_id')
      .executeTakeFirst();
    return r !== undefined;
  }

  async settle(id: string, owner: string, at: Date, v: VenueWithdrawalSettlement): Promise<void> {
    await this.db
      .updateTable('venue_withdrawals')
      .set({
        state: v.state,
        updated_at: at,
        lease_owner: null,
        lease_until: null,
        ...(v.venueWithdrawalId !== undefined ? { venue_withdrawal_id: v.venueWithdrawalId } : {}),
        ...(v.venueStatus !== undefined ? { venue_status: v.venueStatus } : {}),
        ...(v.txid !== undefined ? { txid: v.txid } : {}),
        ...(v.feeText !== undefined ? { fee_text: v.feeText } : {}),
        ...(v.reason !== undefined ? { reason: v.reason.slice(0, 500) } : {}),
      })
      .where('withdrawal_id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async release(id: string, owner: string): Promise<void> {
    await this.db
      .updateTable('venue_withdrawals')
      .set({ lease_owner: null, lease_until: null })
      .where('withdrawal_id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async views(ids: string[]): Promise<Map<string, CryptoWithdrawalView>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('venue_withdrawals').selectAll().where('withdrawal_id', 'in', ids).execute();
    return new Map(
      rows.map((r) => [
        r.withdrawal_id,
        {
          venue: r.venue,
          state: r.state,
          status: r.venue_status,
          amount: r.amount_text,
          fee: r.fee_text,
          venueWithdrawalId: r.venue_withdrawal_id,
          txid: r.txid,
          reason: r.reason,
          attempts: r.attempts,
        },
      ]),
    );
  }
}

import { sql, type Kysely } from 'kysely';

/**
 * Crypto out (docs/market.md "Crypto destinations"):
 * - `market_assets.kind`: `fiat` or `crypto`; null accepts both kinds of destination.
 * - `withdrawal_destinations` gain `kind` (`bank` or `crypto`), and for a crypto one its `network`,
 *   `address` and `memo`; the bank columns of a crypto destination are empty. The address is kept plain:
 *   the organization's members and staff see it whole. The unique (organization, fingerprint) also
 *   refuses the same address, asset and network twice.
 * - `withdrawals.txid`: the chain's transaction id once known.
 * - `venue_withdrawals`: one row per approved crypto withdrawal sent to a CCXT venue, keyed by the
 *   withdrawal's id (also the venue's withdraw order id). Written `sending` before the request leaves,
 *   so a crash or a lost answer makes the next attempt look it up instead of sending it again; a lease
 *   lets one instance at a time work on a row.
 * - The events of destinations and withdrawals carry the new fields as their lists show them.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table market_assets add column kind text check (kind in ('fiat','crypto'));
    alter table withdrawal_destinations
      add column kind text not null default 'bank' check (kind in ('bank','crypto')),
      add column network text, add column address text, add column memo text;
    alter table withdrawals add column txid text;
    create table venue_withdrawals (
      withdrawal_id text primary key, venue text not null, coin text not null, network text not null,
      address text not null, memo text, amount_text text not null, fee_text text not null,
      state text not null check (state in ('new','sending','unknown','processing','completed','failed')),
      attempts integer not null default 0, sent_at timestamptz, recv_window_ms integer not null,
      venue_withdrawal_id text, venue_status text, txid text, reason text,
      lease_owner text, lease_until timestamptz, created_at timestamptz not null, updated_at timestamptz not null);
    create index venue_withdrawals_open on venue_withdrawals (updated_at) where state in ('new','sending','unknown','processing');
  `.execute(db);

  await sql`create function cambio_destination_kind(kind text, network text, address text, memo text) returns jsonb language sql immutable as
    $$ select case when kind = 'crypto'
         then jsonb_build_object('kind', kind, 'network', network, 'address', address, 'memo', memo)
         else '{}'::jsonb end $$`.execute(db);

  await sql`create or replace function cambio_destination_event() returns trigger language plpgsql as $$
    begin
      perform cambio_event(new.organization_id, 'destination.registered', new.id, jsonb_build_object('id', new.id, 'label', new.label,
        'assetSymbol', new.asset_symbol, 'summary', new.summary,
        'usable', new.registered_in_market_at is not null and new.cooldown_until <= new.created_at,
        'createdAt', cambio_iso(new.created_at)) || cambio_destination_kind(new.kind, new.network, new.address, new.memo), new.created_at);
      return null;
    end $$`.execute(db);

  await sql`create or replace function cambio_withdrawal_event() returns trigger language plpgsql as $$
    declare body jsonb;
    begin
      if tg_op = 'UPDATE' and new.state is not distinct from old.state then return null; end if;
      body := jsonb_build_object('id', new.id, 'state', new.state,
        'money', cambio_money(new.asset_symbol, new.asset_decimals, new.amount_minor),
        'destinationId', new.destination_id,
        'destinationSummary', (select summary from withdrawal_destinations where id = new.destination_id),
        'reason', new.reason, 'txid', new.txid, 'createdAt', cambio_iso(new.created_at), 'updatedAt', cambio_iso(new.updated_at));
      if tg_op = 'INSERT' then
        perform cambio_event(new.organization_id, 'withdrawal.created', new.id, body, new.created_at);
        return null;
      end if;
      if old.state = 'pending_approval' and new.state in ('completed', 'failed') then
        perform cambio_event(new.organization_id, 'withdrawal.approved', new.id, body || jsonb_build_object('state', 'approved', 'reason', null, 'txid', null), new.updated_at);
      end if;
      perform cambio_event(new.organization_id, 'withdrawal.' || new.state, new.id, body, new.updated_at);
      return null;
    end $$`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}

import { sql, type Kysely } from 'kysely';

/**
 * Events (docs/api-guide.md): every state change of an order, withdrawal, deposit, declaration and destination
 * writes an event in the same transaction. Triggers on the five tables do it, so no write path (store,
 * use case, background task, a statement yet to be written) can change a state without its event, and an
 * event never outlives a rolled-back change. `data` is the record as its list endpoint shows it; the SQL
 * below builds the same JSON as the routes' wire functions (events.test.ts compares them).
 *
 * `txid` is the writing transaction: readers list only events of transactions older than every one
 * still running, in (txid, seq) order, so a cursor never skips an event that commits later.
 * `destination.usable` is a moment in time, not a write: a background task emits it (events-store.ts).
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table events (
    seq bigserial primary key,
    txid bigint not null default (pg_current_xact_id()::text::bigint),
    organization_id text not null,
    type text not null,
    subject_id text not null,
    data jsonb not null,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create index events_by_organization on events (organization_id, txid, seq)`.execute(db);
  await sql`create index events_by_subject on events (subject_id, type)`.execute(db);

  await sql`create function cambio_iso(t timestamptz) returns text language sql immutable as
    $$ select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$`.execute(db);
  await sql`create function cambio_money(sym text, d integer, a numeric) returns jsonb language sql immutable as
    $$ select jsonb_build_object('assetSymbol', sym, 'assetDecimals', d, 'amountMinor', a::text) $$`.execute(db);
  await sql`create function cambio_decimal(a numeric, d integer) returns text language sql immutable as
    $$ select case when d = 0 then a::text else left(lpad(a::text, d + 1, '0'), -d) || '.' || right(lpad(a::text, d + 1, '0'), d) end $$`.execute(db);
  await sql`create function cambio_event(org text, kind text, subject text, body jsonb, at timestamptz) returns void language sql as
    $$ insert into events (organization_id, type, subject_id, data, created_at) values (org, kind, subject, body, at) $$`.execute(db);

  // order.created|approved|completed|rejected|failed; a request settled in one statement from
  // pending_approval to completed or failed was approved first, and says so.
  await sql`create function cambio_order_event() returns trigger language plpgsql as $$
    declare body jsonb;
    begin
      if tg_op = 'UPDATE' and new.state is not distinct from old.state then return null; end if;
      body := jsonb_build_object('id', new.id, 'state', new.state, 'quoteId', new.quote_id,
        'base', cambio_money(new.base_symbol, new.base_decimals, new.amount_base_minor),
        'quote', cambio_money(new.quote_symbol, new.quote_decimals, new.amount_quote_minor),
        'rateQuoteMinor', new.rate_quote_minor::text, 'reason', new.reason,
        'createdAt', cambio_iso(new.created_at), 'updatedAt', cambio_iso(new.updated_at));
      if tg_op = 'INSERT' then
        perform cambio_event(new.organization_id, 'order.created', new.id, body, new.created_at);
        return null;
      end if;
      if old.state = 'pending_approval' and new.state in ('completed', 'failed') then
        perform cambio_event(new.organization_id, 'order.approved', new.id, body || jsonb_build_object('state', 'approved', 'reason', null), new.updated_at);
      end if;
      perform cambio_event(new.organization_id, 'order.' || new.state, new.id, body, new.updated_at);
      return null;
    end $$`.execute(db);
  await sql`create trigger orders_events after insert or update of state on orders for each row execute function cambio_order_event()`.execute(db);

  await sql`create function cambio_withdrawal_event() returns trigger language plpgsql as $$
    declare body jsonb;
    begin
      if tg_op = 'UPDATE' and new.state is not distinct from old.state then return null; end if;
      body := jsonb_build_object('id', new.id, 'state', new.state,
        'money', cambio_money(new.asset_symbol, new.asset_decimals, new.amount_minor),
        'destinationId', new.destination_id,
        'destinationSummary', (select summary from withdrawal_destinations where id = new.destination_id),
        'reason', new.reason, 'createdAt', cambio_iso(new.created_at), 'updatedAt', cambio_iso(new.updated_at));
      if tg_op = 'INSERT' then
        perform cambio_event(new.organization_id, 'withdrawal.created', new.id, body, new.created_at);
        return null;
      end if;
      if old.state = 'pending_approval' and new.state in ('completed', 'failed') then
        perform cambio_event(new.organization_id, 'withdrawal.approved', new.id, body || jsonb_build_object('state', 'approved', 'reason', null), new.updated_at);
      end if;
      perform cambio_event(new.organization_id, 'withdrawal.' || new.state, new.id, body, new.updated_at);
      return null;
    end $$`.execute(db);
  await sql`create trigger withdrawals_events after insert or update of state on withdrawals for each row execute function cambio_withdrawal_event()`.execute(db);

  // deposit.credited: an arrival matched to a declaration, or attributed by hand.
  await sql`create function cambio_deposit_event() returns trigger language plpgsql as $$
    begin
      if new.state <> 'credited' or new.organization_id is null then return null; end if;
      if tg_op = 'UPDATE' and old.state = 'credited' then return null; end if;
      perform cambio_event(new.organization_id, 'deposit.credited', new.id, jsonb_build_object('id', new.id, 'state', new.state,
        'money', cambio_money(new.asset_symbol, new.asset_decimals, new.amount_minor),
        'txid', new.txid, 'network', new.network, 'declarationId', new.declaration_id,
        'createdAt', cambio_iso(new.created_at), 'updatedAt', cambio_iso(new.updated_at)), new.updated_at);
      return null;
    end $$`.execute(db);
  await sql`create trigger deposits_events after insert or update of state on deposits for each row execute function cambio_deposit_event()`.execute(db);

  // declaration.created|matched|expired; expiresInSeconds as the list would have shown it at that moment.
  await sql`create function cambio_declaration_event() returns trigger language plpgsql as $$
    declare at timestamptz;
    begin
      if tg_op = 'UPDATE' and new.state is not distinct from old.state then return null; end if;
      at := case when tg_op = 'INSERT' then new.created_at else new.updated_at end;
      perform cambio_event(new.organization_id, 'declaration.' || case when tg_op = 'INSERT' then 'created' else new.state end, new.id,
        jsonb_build_object('id', new.id, 'reference', new.reference, 'state', new.state, 'assetSymbol', new.asset_symbol,
          'assetDecimals', new.asset_decimals, 'declaredAmountMinor', new.declared_amount_minor::text,
          'expectedAmountMinor', new.expected_amount_minor::text, 'expectedAmount', cambio_decimal(new.expected_amount_minor, new.asset_decimals),
          'network', new.network, 'address', new.address, 'expiresAt', cambio_iso(new.expires_at),
          'expiresInSeconds', case when new.expires_at <= at then 0 else ceil(extract(epoch from new.expires_at - at))::integer end),
        at);
      return null;
    end $$`.execute(db);
  await sql`create trigger declarations_events after insert or update of state on deposit_declarations for each row execute function cambio_declaration_event()`.execute(db);

  await sql`create function cambio_destination_event() returns trigger language plpgsql as $$
    begin
      perform cambio_event(new.organization_id, 'destination.registered', new.id, jsonb_build_object('id', new.id, 'label', new.label,
        'assetSymbol', new.asset_symbol, 'summary', new.summary,
        'usable', new.registered_in_market_at is not null and new.cooldown_until <= new.created_at,
        'createdAt', cambio_iso(new.created_at)), new.created_at);
      return null;
    end $$`.execute(db);
  await sql`create trigger destinations_events after insert on withdrawal_destinations for each row execute function cambio_destination_event()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}

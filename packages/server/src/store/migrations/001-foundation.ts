import { sql, type Kysely } from 'kysely';

/**
 * The whole schema of the first release. Frozen: later changes are new migrations.
 * Amounts are numeric(78,0); times are timestamptz written by the application's clock.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table settings (key text primary key, value text not null);

    create table organizations (
      id text primary key, seq bigserial not null unique, name text not null,
      status text not null check (status in ('draft','active','suspended')),
      limits jsonb, created_at timestamptz not null, updated_at timestamptz not null);

    create table members (
      id text primary key, organization_id text not null references organizations(id),
      name text not null, email text not null, permissions jsonb not null,
      created_at timestamptz not null, updated_at timestamptz not null,
      unique (organization_id, email));

    create table api_keys (
      id text primary key, organization_id text not null references organizations(id),
      member_id text not null references members(id), prefix text not null unique,
      secret_hash text not null, scopes jsonb not null, expires_at timestamptz, allowed_ips jsonb,
      revoked_at timestamptz, created_at timestamptz not null);

    create table accounts (
      owner_id text not null, asset_symbol text not null, kind text not null,
      balance numeric(78,0) not null default 0,
      primary key (owner_id, asset_symbol, kind),
      constraint accounts_org_non_negative check (owner_id = 'platform' or balance >= 0));

    create table journal_entries (
      id text primary key, seq bigserial not null unique, kind text not null,
      organization_id text, reference_id text, memo text, created_at timestamptz not null);
    create index journal_entries_reference on journal_entries (reference_id);

    create table postings (
      id bigserial primary key, entry_id text not null references journal_entries(id),
      owner_id text not null, asset_symbol text not null, account_kind text not null,
      amount numeric(78,0) not null, created_at timestamptz not null);
    create index postings_owner on postings (owner_id, id desc);
    create index postings_entry on postings (entry_id);

    create table holds (
      id text primary key, organization_id text not null, asset_symbol text not null,
      amount numeric(78,0) not null check (amount > 0),
      state text not null check (state in ('active','captured','released')),
      created_at timestamptz not null, updated_at timestamptz not null);
    create index holds_active on holds (organization_id, asset_symbol) where state = 'active';

    create table market_assets (symbol text primary key, decimals integer not null, updated_at timestamptz not null);

    create table market_pairs (
      base_symbol text not null references market_assets(symbol),
      quote_symbol text not null references market_assets(symbol),
      mid_rate text not null, spread_bps integer not null, fee_bps integer not null,
      fixed_fee_quote_minor numeric(78,0) not null, min_base_minor numeric(78,0) not null,
      max_base_minor numeric(78,0) not null, updated_at timestamptz not null,
      primary key (base_symbol, quote_symbol));

    create table venue_balances (asset_symbol text primary key, amount numeric(78,0) not null);

    create table quotes (
      id text primary key, organization_id text not null, base_symbol text not null,
      quote_symbol text not null, base_decimals integer not null, quote_decimals integer not null,
      rate_quote_minor numeric(78,0) not null, amount_base_minor numeric(78,0) not null,
      amount_quote_minor numeric(78,0) not null, expires_at timestamptz not null,
      consumed_at timestamptz, created_at timestamptz not null);

    create table orders (
      id text primary key, seq bigserial not null unique, organization_id text not null,
      quote_id text not null unique, hold_id text not null, state text not null,
      base_symbol text not null, base_decimals integer not null, amount_base_minor numeric(78,0) not null,
      quote_symbol text not null, quote_decimals integer not null, amount_quote_minor numeric(78,0) not null,
      rate_quote_minor numeric(78,0) not null, proceeds_quote_minor numeric(78,0), reason text,
      created_at timestamptz not null, updated_at timestamptz not null);
    create index orders_org on orders (organization_id, seq desc);
    create index orders_state on orders (state, seq desc);

    create table deposit_wallets (asset_symbol text primary key, network text not null, address text not null, updated_at timestamptz not null);

    create table deposit_declarations (
      id text primary key, seq bigserial not null unique, organization_id text not null,
      reference text not null, asset_symbol text not null, asset_decimals integer not null,
      declared_amount_minor numeric(78,0) not null, expected_amount_minor numeric(78,0) not null,
      network text, address text, state text not null check (state in ('open','matched','expired')),
      expires_at timestamptz not null, deposit_id text,
      created_at timestamptz not null, updated_at timestamptz not null);
    create unique index declarations_one_open_per_org on deposit_declarations (organization_id) where state = 'open';
    create unique index declarations_unique_open_amount on deposit_declarations (asset_symbol, expected_amount_minor) where state = 'open';
    create index declarations_open_expiry on deposit_declarations (expires_at) where state = 'open';

    create table deposits (
      id text primary key, seq bigserial not null unique, organization_id text,
      asset_symbol text not null, asset_decimals integer not null, network text not null,
      amount_minor numeric(78,0) not null check (amount_minor > 0), txid text not null unique,
      state text not null check (state in ('credited','unattributed')), declaration_id text,
      created_at timestamptz not null, updated_at timestamptz not null);
    create index deposits_org on deposits (organization_id, seq desc);

    create table withdrawal_destinations (
      id text primary key, seq bigserial not null unique, organization_id text not null,
      label text not null, asset_symbol text not null, bank_name text not null, account_kind text not null,
      account_number_enc text not null, holder_name text not null, holder_document_enc text not null,
      account_fingerprint text not null, summary text not null, cooldown_until timestamptz not null,
      registered_in_market_at timestamptz, created_at timestamptz not null, updated_at timestamptz not null,
      unique (organization_id, account_fingerprint));

    create table withdrawals (
      id text primary key, seq bigserial not null unique, organization_id text not null,
      destination_id text not null references withdrawal_destinations(id), hold_id text not null,
      state text not null, asset_symbol text not null, asset_decimals integer not null,
      amount_minor numeric(78,0) not null, reason text,
      created_at timestamptz not null, updated_at timestamptz not null);
    create index withdrawals_org on withdrawals (organization_id, seq desc);
    create index withdrawals_state on withdrawals (state, seq desc);

    create table reconciliation_runs (
      id text primary key, seq bigserial not null unique, matched boolean not null,
      figures jsonb not null, actor text not null, created_at timestamptz not null);

    create table platform_state (
      id integer primary key check (id = 1), reconciled boolean not null,
      run_id text, changed_at timestamptz not null);
    insert into platform_state (id, reconciled, changed_at) values (1, true, now());

    create table audit_log (
      id text primary key, seq bigserial not null unique, actor text not null, action text not null,
      subject_type text not null, subject_id text not null, before jsonb, after jsonb,
      created_at timestamptz not null);
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}

import type { ColumnType, Generated } from 'kysely';

/** Row types of every table (migrations/001). Amounts are numeric: strings when read, strings when written. */
type Numeric = ColumnType<string, string, string>;
type Json<T> = ColumnType<T, string, string>;
type Ts = ColumnType<Date, Date, Date>;
type Seq = Generated<string>;
/** The language a person last signed in with (mails to them); absent until then. */
type Lang = ColumnType<string | null, string | null | undefined, string | null>;

/** A policy rule as stored: its amount a digit string. */
export interface StoredRule {
  action: string;
  assetSymbol: string | null;
  fromAmountMinor: string | null;
  approvals: number;
}
/** One member's approval as stored. */
/** A rule of the operator's policy as stored (migrations/116). */
export interface StoredOperatorRule {
  action: string;
  assetSymbol: string | null;
  organizationId: string | null;
  fromAmountMinor: string | null;
  approvals: number;
  roles: string[];
}

/** One staff person's approval of an operator request (migrations/116). */
export interface StoredStaffApproval {
  staffId: string;
  name: string;
  at: string;
}

export interface StoredApproval {
  memberId: string;
  name: string;
  at: string;
}

export interface Database {
  settings: { key: string; value: string };
  organizations: {
    id: string;
    seq: Seq;
    name: string;
    status: string;
    limits: Json<unknown> | null;
    require_totp: Generated<boolean>;
    created_at: Ts;
    updated_at: Ts;
  };
  /** migrations/080: what an organization chose for its reports. */
  organization_reporting: {
    organization_id: string;
    reporting_currency: string | null;
    language: string | null;
    updated_at: Ts;
    updated_by: string;
  };
  members: {
    id: string;
    organization_id: string;
    name: string;
    email: string;
    permissions: Json<string[]>;
    status: Generated<string>;
    lang: Lang;
    created_at: Ts;
    updated_at: Ts;
  };
  api_keys: {
    id: string;
    organization_id: string;
    member_id: string;
    prefix: string;
    secret_hash: string;
    scopes: Json<string[]>;
    expires_at: Ts | null;
    allowed_ips: Json<string[]> | null;
    revoked_at: Ts | null;
    created_at: Ts;
    last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    name: ColumnType<string | null, string | null | undefined, string | null>;
  };
  accounts: { owner_id: string; asset_symbol: string; kind: string; balance: Numeric };
  journal_entries: {
    id: string;
    seq: Seq;
    kind: string;
    organization_id: string | null;
    reference_id: string | null;
    memo: string | null;
    created_at: Ts;
    txid: Generated<string>;
  };
  postings: {
    id: Generated<string>;
    entry_id: string;
    owner_id: string;
    asset_symbol: string;
    account_kind: string;
    amount: Numeric;
    created_at: Ts;
    entry_kind: string;
    reference_id: string | null;
    memo: string | null;
  };
  holds: { id: string; organization_id: string; asset_symbol: string; amount: Numeric; state: string; created_at: Ts; updated_at: Ts };
  market_assets: { symbol: string; decimals: number; updated_at: Ts; /** migrations/060 */ kind: string | null };
  market_pairs: {
    base_symbol: string;
    quote_symbol: string;
    mid_rate: string;
    spread_bps: number;
    fee_bps: number;
    fixed_fee_quote_minor: Numeric;
    min_base_minor: Numeric;
    max_base_minor: Numeric;
    updated_at: Ts;
    /** migrations/018: set when the pair is priced from a venue's order book (mid_rate is then empty). */
    venue_symbol: string | null;
    max_book_age_ms: number | null;
  };
  /** migrations/018: one row per approved order sent to a CCXT venue (venues/ccxt). */
  venue_orders: {
    order_id: string;
    venue: string;
    venue_symbol: string;
    side: string;
    amount_text: string;
    state: string;
    attempts: number;
    sent_at: Ts | null;
    recv_window_ms: number;
    venue_order_id: string | null;
    executed_qty: string | null;
    quote_qty: string | null;
    proceeds_quote_minor: Numeric | null;
    reason: string | null;
    lease_owner: string | null;
    lease_until: Ts | null;
    created_at: Ts;
    updated_at: Ts;
    /** migrations/027: fees in other assets, JSON [{assetSymbol, amountMinor}]. */
    costs: string | null;
  };
  venue_balances: { asset_symbol: string; amount: Numeric };
  /** migrations/002: one row per order executed (or refused) at the simulated venue. */
  venue_executions: {
    order_id: string;
    base_symbol: string;
    quote_symbol: string;
    amount_base_minor: Numeric;
    proceeds_quote_minor: Numeric | null;
    state: string;
    reason: string | null;
    created_at: Ts;
    booked_at: Ts | null;
  };
  quotes: {
    id: string;
    organization_id: string;
    base_symbol: string;
    quote_symbol: string;
    base_decimals: number;
    quote_decimals: number;
    rate_quote_minor: Numeric;
    amount_base_minor: Numeric;
    amount_quote_minor: Numeric;
    expires_at: Ts;
    consumed_at: Ts | null;
    created_at: Ts;
    /** migrations/125: the venue it was priced at (a venue-priced pair); null otherwise. */
    venue: string | null;
  };
  /** migrations/125: what each connected venue offered for a quote, in the order the venues are listed. */
  quote_offers: {
    quote_id: string;
    position: number;
    venue: string;
    rate_quote_minor: Numeric | null;
    amount_base_minor: Numeric | null;
    amount_quote_minor: Numeric | null;
    proceeds_quote_minor: Numeric | null;
    left_out: string | null;
    detail: string | null;
  };
  orders: {
    id: string;
    seq: Seq;
    organization_id: string;
    quote_id: string;
    hold_id: string;
    state: string;
    base_symbol: string;
    base_decimals: number;
    amount_base_minor: Numeric;
    quote_symbol: string;
    quote_decimals: number;
    amount_quote_minor: Numeric;
    rate_quote_minor: Numeric;
    proceeds_quote_minor: Numeric | null;
    reason: string | null;
    created_at: Ts;
    updated_at: Ts;
    /** migrations/008: where the desk executed it (production). */
    venue: string | null;
    venue_reference: string | null;
  };
  deposit_wallets: {
    asset_symbol: string;
    network: string;
    address: string;
    updated_at: Ts;
    source: ColumnType<string, string | undefined, string>;
  };
  deposit_declarations: {
    id: string;
    seq: Seq;
    organization_id: string;
    reference: string;
    asset_symbol: string;
    asset_decimals: number;
    declared_amount_minor: Numeric;
    expected_amount_minor: Numeric;
    network: string | null;
    address: string | null;
    state: string;
    expires_at: Ts;
    deposit_id: string | null;
    created_at: Ts;
    updated_at: Ts;
  };
  deposits: {
    id: string;
    seq: Seq;
    organization_id: string | null;
    asset_symbol: string;
    asset_decimals: number;
    network: string;
    amount_minor: Numeric;
    txid: string;
    state: string;
    declaration_id: string | null;
    created_at: Ts;
    updated_at: Ts;
  };
  withdrawal_destinations: {
    id: string;
    seq: Seq;
    organization_id: string;
    label: string;
    asset_symbol: string;
    bank_name: string;
    account_kind: string;
    account_number_enc: string;
    holder_name: string;
    holder_document_enc: string;
    account_fingerprint: string;
    summary: string;
    cooldown_until: Ts;
    registered_in_market_at: Ts | null;
    created_at: Ts;
    updated_at: Ts;
    /** migrations/060: bank or crypto; a crypto one's network, address and memo. */
    kind: Generated<string>;
    network: string | null;
    address: string | null;
    memo: string | null;
    /** migrations/115: pending_approval (waiting for the organization's members), active, rejected. */
    state: Generated<string>;
  };
  withdrawals: {
    id: string;
    seq: Seq;
    organization_id: string;
    destination_id: string;
    hold_id: string;
    state: string;
    asset_symbol: string;
    asset_decimals: number;
    amount_minor: Numeric;
    reason: string | null;
    created_at: Ts;
    updated_at: Ts;
    /** migrations/008: the bank transfer that paid it out (production). */
    payout_reference: string | null;
    /** migrations/060: the chain's transaction id of a crypto withdrawal. */
    txid: string | null;
  };
  /** migrations/060: one row per approved crypto withdrawal sent to a CCXT venue (venues/ccxt). */
  venue_withdrawals: {
    withdrawal_id: string;
    venue: string;
    coin: string;
    network: string;
    address: string;
    memo: string | null;
    amount_text: string;
    fee_text: string;
    state: string;
    attempts: number;
    sent_at: Ts | null;
    recv_window_ms: number;
    venue_withdrawal_id: string | null;
    venue_status: string | null;
    txid: string | null;
    reason: string | null;
    lease_owner: string | null;
    lease_until: Ts | null;
    created_at: Ts;
    updated_at: Ts;
  };
  reconciliation_runs: { id: string; seq: Seq; matched: boolean; figures: Json<unknown>; actor: string; created_at: Ts };
  platform_state: { id: number; reconciled: boolean; run_id: string | null; changed_at: Ts };
  /** migrations/006: four-eyes. */
  approval_policies: { asset_symbol: string; second_approval_from_minor: Numeric; updated_at: Ts };
  approvals: { subject_type: string; subject_id: string; staff_id: string; staff_name: string; created_at: Ts };
  /** migrations/100: the organization's own controls (docs/controls.md). */
  organization_policies: { organization_id: string; rules: Json<StoredRule[]>; updated_at: Ts; updated_by: string };
  organization_approvals: {
    kind: string;
    request_id: string;
    organization_id: string;
    initiator_member_id: string;
    required: number;
    given: Json<StoredApproval[]>;
    waiting_for: string;
    rejected_by: string | null;
    reason: string | null;
    created_at: Ts;
    updated_at: Ts;
  };
  organization_policy_changes: {
    id: string;
    organization_id: string;
    rules: Json<StoredRule[]>;
    state: string;
    created_by: string;
    created_at: Ts;
    updated_at: Ts;
  };
  /** migrations/116: the operator's policy, its drafts and the requests that wait for staff approvals. */
  operator_policy: {
    id: number;
    rules: Json<StoredOperatorRule[]>;
    draft_id: string | null;
    published_at: Ts | null;
    published_by: string | null;
    published_by_name: string | null;
  };
  operator_policy_drafts: {
    id: string;
    seq: Seq;
    rules: Json<StoredOperatorRule[]>;
    author: string;
    author_name: string;
    state: string;
    published_by: string | null;
    published_by_name: string | null;
    created_at: Ts;
    updated_at: Ts;
  };
  operator_requests: {
    id: string;
    seq: Seq;
    kind: string;
    state: string;
    organization_id: string;
    asset_symbol: string;
    amount_minor: Numeric;
    subject_id: string | null;
    note: string;
    required: number;
    roles: Json<string[]>;
    approvals: Json<StoredStaffApproval[]>;
    requested_by: string;
    requested_by_name: string;
    reason: string | null;
    created_at: Ts;
    updated_at: Ts;
  };
  /** migrations/007: people. */
  staff: { id: string; seq: Seq; name: string; email: string; role: string; status: string; lang: Lang; created_at: Ts; updated_at: Ts };
  credentials: {
    subject_type: string;
    subject_id: string;
    password_hash: string | null;
    totp_secret_sealed: string | null;
    totp_pending_sealed: string | null;
    totp_last_step: ColumnType<string | null, string | null, string | null>;
    recovery_hashes: Json<string[]> | null;
    updated_at: Ts;
  };
  invitations: {
    token_hash: string;
    subject_type: string;
    subject_id: string;
    expires_at: Ts;
    used_at: Ts | null;
    created_at: Ts;
    invited_by: Generated<string | null>;
    email: Generated<string | null>;
  };
  sessions: { id_hash: string; kind: string; subject_id: string; created_at: Ts; last_seen_at: Ts; expires_at: Ts; ended_at: Ts | null };
  staff_tokens: {
    id: string;
    seq: Seq;
    staff_id: string;
    name: string;
    prefix: string;
    secret_hash: string;
    created_at: Ts;
    last_used_at: Ts | null;
    revoked_at: Ts | null;
  };
  sign_in_failures: { key: string; failures: number; window_start: Ts; locked_until: Ts | null };
  mail_outbox: {
    id: string;
    seq: Seq;
    kind: string;
    to_address: string;
    sealed: string | null;
    state: string;
    attempts: Generated<number>;
    next_attempt_at: Ts;
    last_error: string | null;
    created_at: Ts;
    finished_at: Ts | null;
  };
  password_resets: {
    token_hash: string;
    subject_type: string;
    email: string;
    expires_at: Ts;
    used_at: Ts | null;
    created_at: Ts;
    subject_id: Generated<string | null>;
  };
  mail_cursor: { id: number; txid: ColumnType<string, string, string>; seq: ColumnType<string, string, string> };
  audit_log: {
    id: string;
    seq: Seq;
    actor: string;
    action: string;
    subject_type: string;
    subject_id: string;
    before: Json<unknown> | null;
    after: Json<unknown> | null;
    created_at: Ts;
  };
  /** migrations/011: state changes, written by triggers in the same transaction. */
  events: {
    seq: Generated<string>;
    txid: Generated<string>;
    organization_id: string;
    type: string;
    subject_id: string;
    data: Json<Record<string, unknown>>;
    created_at: Ts;
  };
  /** migrations/010: Idempotency-Key claims and the answers kept for them. */
  idempotency_keys: {
    scope: string;
    key: string;
    fingerprint: string;
    state: string;
    status: number | null;
    response: string | null;
    created_at: Ts;
    expires_at: Ts;
  };
  /** migrations/012: webhook endpoints, one delivery per endpoint and event, and the log of attempts. */
  webhook_endpoints: {
    id: string;
    seq: Seq;
    organization_id: string;
    url: string;
    types: Json<string[]> | null;
    secret_sealed: string;
    previous_secret_sealed: string | null;
    previous_secret_until: Ts | null;
    status: string;
    failing_since: Ts | null;
    disabled_at: Ts | null;
    disabled_reason: string | null;
    created_at: Ts;
    updated_at: Ts;
  };
  webhook_deliveries: {
    id: Generated<string>;
    endpoint_id: string;
    event_seq: string;
    state: string;
    attempts: Generated<number>;
    round_attempts: Generated<number>;
    next_attempt_at: Ts;
    claim_token: string | null;
    claimed_until: Ts | null;
    last_status: number | null;
    last_error: string | null;
    last_attempt_at: Ts | null;
    delivered_at: Ts | null;
    created_at: Ts;
    updated_at: Ts;
  };
  /** migrations/022: the journal log (store/transparency-store.ts). */
  log_leaves: { idx: string; entry_id: string; leaf_hash: Uint8Array };
  log_nodes: { level: number; idx: string; hash: Uint8Array };
  log_head: { id: number; size: string; frontier: Uint8Array; last_txid: string; last_seq: string };
  log_checkpoints: { size: string; root: Uint8Array; note: string; created_at: Ts };
  webhook_attempts: {
    delivery_id: string;
    attempt: number;
    started_at: Ts;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
  };
}

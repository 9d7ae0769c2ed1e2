/**
 * The ports use cases write through: the unit of work, the transaction it hands out, and one narrow
 * repository per kind of record, holding only the methods use cases call, in domain terms. The store
 * (Kysely over PostgreSQL or PGlite) implements them; a use case never imports it.
 */
import type { ApprovalKind } from '@cambio/contract';
import type { OrganizationApprovals } from '../domain/policy/approvals.ts';
import type { PolicyRule } from '../domain/policy/rules.ts';
import type { Approval, ApprovalSubject } from '../domain/approvals/four-eyes.ts';
import type { OperatorRule } from '../domain/approvals/operator-rules.ts';
import type { StaffRequest, StaffRequestState } from '../domain/approvals/staff-request.ts';
import type { Declaration } from '../domain/deposits/declaration.ts';
import type { DepositWallet } from '../domain/deposits/wallet.ts';
import type { NewDestination } from '../domain/destinations/register.ts';
import type { Entry } from '../domain/ledger/entry.ts';
import type { MarketPair, PairTerms } from '../domain/market/pair-terms.ts';
import type { Order, QuoteToAccept } from '../domain/orders/order.ts';
import type { Quote, QuoteOffer } from '../domain/quotes/quote.ts';
import type { Limits, Organization, OrgStatus } from '../domain/organizations/organization.ts';
import type { Ids } from '../domain/ports.ts';
import type { Figure } from '../domain/reconciliation/compare.ts';
import type { LeafPosting } from '../domain/transparency/leaf.ts';
import type { SumLevels } from '../domain/transparency/sum-tree.ts';
import type { WebhookEndpoint } from '../domain/webhooks/endpoint.ts';
import type { WithdrawalState } from '../domain/withdrawals/withdrawal.ts';

import type { Tx, UnitOfWork } from './tx.ts';
import type { VenueOrdersRepository } from './orders/venue-orders-repository.ts';

export type { Tx, UnitOfWork };

// ---- Records as use cases see them ----------------------------------------------------------------

export interface AuditRecord {
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  before: unknown;
  after: unknown;
}
export interface HoldRow {
  id: string;
  organizationId: string;
  assetSymbol: string;
  amount: bigint;
}

export type DepositState = 'credited' | 'unattributed';
/** A declaration about to be written: open, expecting `expectedAmount` at the asset's wallet. */
export interface NewDeclaration {
  id: string;
  organizationId: string;
  reference: string;
  assetSymbol: string;
  assetDecimals: number;
  declaredAmount: bigint;
  expectedAmount: bigint;
  network: string;
  address: string;
  expiresAt: Date;
  at: Date;
}

export interface Deposit {
  id: string;
  organizationId: string | null;
  assetSymbol: string;
  assetDecimals: number;
  network: string;
  amount: bigint;
  txid: string;
  state: DepositState;
  declarationId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A destination as the service reads it. The sealed account number and document never leave the store. */
export interface DestinationRow {
  id: string;
  organizationId: string;
  label: string;
  assetSymbol: string;
  bankName: string;
  accountKind: string;
  holderName: string;
  summary: string;
  cooldownUntil: Date;
  registeredInMarketAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  kind: 'bank' | 'crypto';
  /** A crypto destination's network, whole address and memo; null for a bank account. */
  network: string | null;
  address: string | null;
  memo: string | null;
  /** pending_approval while the organization's members have not approved it (docs/controls.md), rejected when one refused it. */
  state: 'pending_approval' | 'active' | 'rejected';
}

/** A key as issued: `secretHash` is the keyed hash of the secret (domain/keys/api-key.ts, hashSecret). */
export interface NewKey {
  organizationId: string;
  memberId: string;
  prefix: string;
  secretHash: string;
  scopes: string[];
  expiresAt: Date | null;
  allowedIps: string[] | null;
  /** What the key is for, as its issuer named it; null: unnamed. */
  name?: string | null;
}
export interface IssuedKey {
  id: string;
  prefix: string;
  scopes: string[];
  organizationId: string;
  memberId: string;
  expiresAt: Date | null;
  allowedIps: string[] | null;
  createdAt: Date;
}

/** What the platform owes one organization in one asset: available + held. */
export interface Owed {
  organizationId: string;
  assetSymbol: string;
  amount: bigint;
}
export interface SnapshotAsset {
  assetSymbol: string;
  assetDecimals: number;
  rootHash: Buffer;
  total: bigint;
  leafCount: number;
}
export interface Snapshot {
  id: string;
  takenAt: Date;
  /** The journal log's size the amounts are taken at: the postings of its entries with index < treeSize. */
  treeSize: number;
  daily: string | null;
  note: string;
  assets: SnapshotAsset[];
}
export interface NewSnapshot extends Snapshot {
  trees: Array<{
    assetSymbol: string;
    levels: SumLevels;
    leaves: Array<{ organizationId: string; part: number; leafIndex: number; amount: bigint }>;
  }>;
}

export type MailKind = 'invitation' | 'password_reset' | 'notification';
export interface ClaimedMail {
  id: string;
  kind: MailKind;
  to: string;
  sealed: string;
  attempts: number;
}
export interface MailedEvent {
  txid: string;
  seq: string;
  organizationId: string;
  type: string;
  data: Record<string, unknown>;
}
export interface MailRecipient {
  email: string;
  name: string;
  lang: string | null;
}

/** Who is told that a request waits for the organization's approval, and what they are told of it (docs/controls.md). */
export interface ApprovalAudience {
  organization: string;
  /** The member who asked; null when the request was not made by a member. */
  initiator: string | null;
  money: { assetSymbol: string; assetDecimals: number; amountMinor: string } | null;
  recipients: MailRecipient[];
}

export interface MarketAsset {
  symbol: string;
  decimals: number;
  /** fiat (bank destinations), crypto (crypto addresses), or null: both. */
  kind: 'fiat' | 'crypto' | null;
}
export interface PricedPair extends MarketPair {
  updatedAt: Date;
}
/** A pair's terms as stored, before they are parsed: what the audit trail shows of the terms a change replaced. */
export interface StoredPairTerms {
  venueSymbol: string | null;
  maxBookAgeMs: number | null;
  midRate: string;
  spreadBps: number;
  feeBps: number;
  fixedFeeQuoteMinor: string;
  minBaseMinor: string;
  maxBaseMinor: string;
}

export interface NewMember {
  name: string;
  email: string;
  permissions: string[];
}
export interface Member {
  id: string;
  organizationId: string;
  name: string;
  email: string;
  permissions: string[];
  status: 'invited' | 'active' | 'removed';
  createdAt: Date;
  updatedAt: Date;
}

export type PersonKind = 'member' | 'staff';
/** What signing in needs of a person: who, and their credentials. */
export interface PersonCredentials {
  kind: PersonKind;
  id: string;
  name: string;
  email: string;
  status: string;
  passwordHash: string | null;
  totpSealed: string | null;
  totpPendingSealed: string | null;
  totpLastStep: number | null;
  recoveryHashes: string[];
}
/** What a credentials write sets (hashed or sealed values only); what it leaves out stays as it is. */
export interface CredentialsSet {
  passwordHash?: string;
  totpPendingSealed?: string | null;
}
/** A sign-in throttle key: how many attempts its window allows, and how long the one reaching the limit locks it. */
export interface ThrottleKey {
  key: string;
  limit: number;
  lockMs: number;
}

export interface RunRow {
  id: string;
  matched: boolean;
  source: 'given' | 'venue';
  figures: Figure[];
  actor: string;
  createdAt: Date;
}
/** The platform's state row, locked: whether it is reconciled, since when, and the run that stopped it. */
export interface LockedPlatformState {
  reconciled: boolean;
  stoppedByRunId: string | null;
  changedAt: Date;
}
export interface PlatformStateRow {
  reconciled: boolean;
  changedAt: Date;
  stoppedByRunId: string | null;
  lastRun: RunRow | null;
}

/** docs/operator-guide.md: an auditor reads what a viewer reads and writes nothing but their own credentials. */
export type StaffRole = 'viewer' | 'approver' | 'admin' | 'auditor';
export interface Staff {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  status: 'invited' | 'active' | 'removed';
  createdAt: Date;
  updatedAt: Date;
}
export interface StaffToken {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Signs the checkpoint of a tree of `size` leaves whose root is `root`: the note as served. */
export type SignCheckpoint = (size: number, root: Buffer) => string;
/** The log's head row: its size, its frontier (the roots of its complete subtrees, largest first) and the last entry it took. */
export interface LogHead {
  size: number;
  frontier: Buffer[];
  last: { txid: string; seq: string };
}
/** A journal entry whose transaction is over, ready to join the log. */
export interface FinishedEntry {
  id: string;
  txid: string;
  seq: string;
  kind: string;
  createdAt: Date;
  postings: LeafPosting[];
}

export type WalletSource = 'operator' | 'venue';

export interface WithdrawalRow {
  id: string;
  organizationId: string;
  state: WithdrawalState;
  assetSymbol: string;
  assetDecimals: number;
  amount: bigint;
  destinationId: string;
  destinationSummary: string;
  reason: string | null;
  payoutReference: string | null;
  /** The chain's transaction id of a crypto withdrawal, once known. */
  txid: string | null;
  createdAt: Date;
  updatedAt: Date;
}
/** What a withdrawal request reads of its destination. */
export interface DestinationForRequest {
  /** pending_approval and rejected are never usable (docs/controls.md). */
  state: string;
  organizationId: string;
  assetSymbol: string;
  cooldownUntil: Date;
  registeredInMarketAt: Date | null;
  summary: string;
}

/** A delivery a worker holds: one attempt to make, until `claimedUntil` (store/webhooks-store.ts, whose shape this follows). */
export interface ClaimedDelivery {
  deliveryId: string;
  claimToken: string;
  attempt: number;
  roundAttempt: number;
  endpointId: string;
  organizationId: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
  event: { id: string; type: string; createdAt: Date; data: Record<string, unknown> };
}
/** What one attempt came to. */
export interface AttemptOutcome {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

// ---- The repositories ------------------------------------------------------------------------------

/** The audit trail: written in the same transaction as the change it describes, no change without its record. */
export interface AuditTrail {
  record(tx: Tx, ids: Ids, at: Date, r: AuditRecord): Promise<void>;
}

/** Balanced journal entries (domain/ledger/entry.ts), one statement each. */
export interface LedgerRepository {
  /** Refused as ledger.insufficient_balance when an organization account cannot back its change. */
  post(tx: Tx, entryId: string, entry: Entry, at: Date): Promise<void>;
}

/** Holds on available balance: taken with a request, then captured or released exactly once. */
export interface HoldsRepository {
  /** available → held, around `writeRequest` (the request's own write); ledger.insufficient_balance when it cannot be backed. */
  take<T>(
    tx: Tx,
    ids: Ids,
    at: Date,
    r: {
      organizationId: string;
      assetSymbol: string;
      amount: bigint;
      kind: 'order_hold' | 'withdrawal_hold';
      referenceId: string;
    },
    writeRequest: (holdId: string) => Promise<T>,
  ): Promise<T>;
  /** held → available, for a rejected or failed request. */
  release(tx: Tx, ids: Ids, at: Date, holdId: string, kind: 'order_release' | 'withdrawal_release', referenceId: string): Promise<HoldRow>;
  /** Marks the hold captured; the caller posts the settlement entry that takes the amount out of `held`. */
  capture(tx: Tx, holdId: string, at: Date): Promise<HoldRow>;
}

export interface AccountsRepository {
  /** `entryIds`: the organization's entry, then the platform's own (domain/ledger/entries.ts). */
  adjust(
    tx: Tx,
    entryIds: readonly [string, string],
    at: Date,
    r: { organizationId: string; assetSymbol: string; amount: bigint; reason: string },
  ): Promise<{ before: bigint; after: bigint }>;
}

export interface ApprovalsRepository {
  setPolicy(tx: Tx, at: Date, asset: string, from: bigint | null): Promise<void>;
  /** The asset's threshold, read in `tx`; null without a policy. */
  policyIn(tx: Tx, asset: string): Promise<bigint | null>;
  /** The approvals of one request so far, oldest first. */
  approvalsOf(tx: Tx, kind: ApprovalSubject, subjectId: string): Promise<Approval[]>;
  /** Records one person's approval of a request. */
  insertApproval(tx: Tx, at: Date, kind: ApprovalSubject, subjectId: string, person: { id: string; name: string }): Promise<void>;
  /** The operator's published rules (docs/controls.md), read in `tx`. */
  operatorRulesIn(tx: Tx): Promise<OperatorRule[]>;
}

/** The operator's published rules (docs/controls.md); `publishedBy` null while none was ever published. */
export interface PublishedPolicy {
  rules: OperatorRule[];
  draftId: string | null;
  publishedAt: Date | null;
  publishedBy: { actor: string; name: string } | null;
}

/** A draft of the operator's rules, written by one admin and published by another. */
export interface PolicyDraft {
  id: string;
  rules: OperatorRule[];
  author: { actor: string; name: string };
  state: 'draft' | 'published' | 'superseded';
  publishedBy: { actor: string; name: string } | null;
  createdAt: Date;
  updatedAt: Date;
}

/** store/operator-policy-store.ts. */
export interface OperatorPolicyRepository {
  published(): Promise<PublishedPolicy>;
  openDrafts(): Promise<PolicyDraft[]>;
  draft(id: string): Promise<PolicyDraft | null>;
  insertDraft(tx: Tx, d: { id: string; rules: OperatorRule[]; author: { actor: string; name: string } }, at: Date): Promise<void>;
  lockPublished(tx: Tx): Promise<OperatorRule[]>;
  lockDraft(tx: Tx, id: string): Promise<PolicyDraft | null>;
  publish(tx: Tx, draft: PolicyDraft, by: { actor: string; name: string }, at: Date): Promise<void>;
}

/** store/operator-requests-store.ts. */
export interface StaffRequestsRepository {
  insert(tx: Tx, r: StaffRequest): Promise<void>;
  lock(tx: Tx, id: string): Promise<StaffRequest | null>;
  pendingFor(tx: Tx, subjectId: string): Promise<boolean>;
  save(tx: Tx, id: string, set: { state: StaffRequestState; approvals: Approval[]; reason: string | null }, at: Date): Promise<void>;
  get(id: string): Promise<StaffRequest | null>;
  list(state?: StaffRequestState): Promise<StaffRequest[]>;
}

/** The organization's policy as stored: `updatedBy` null when it was never set. */
export interface StoredPolicy {
  rules: PolicyRule[];
  updatedAt: Date | null;
  updatedBy: { id: string; name: string } | null;
}

/** A request that waits for the organization's members, with what an approver reads to decide. */
export interface WaitingRequest {
  approvals: OrganizationApprovals;
  initiatorName: string;
  money: { assetSymbol: string; assetDecimals: number; amount: bigint } | null;
  summary: string;
  createdAt: Date;
}

/** The organization's own controls (docs/controls.md). */
export interface ControlsRepository {
  policyOf(organizationId: string, tx?: Tx): Promise<StoredPolicy>;
  /** The rules in force, read in `tx`. */
  rulesIn(tx: Tx, organizationId: string): Promise<PolicyRule[]>;
  putPolicy(tx: Tx, organizationId: string, rules: PolicyRule[], at: Date, memberId: string): Promise<void>;
  /** A request starts waiting for the organization (in the transaction that creates it). */
  open(tx: Tx, a: OrganizationApprovals, at: Date): Promise<void>;
  /** A request's approvals, read in `tx`; null when no rule asked for any. */
  of(tx: Tx, kind: ApprovalKind, requestId: string): Promise<OrganizationApprovals | null>;
  /** The same, its row locked until `tx` ends. */
  lock(tx: Tx, kind: ApprovalKind, requestId: string): Promise<OrganizationApprovals | null>;
  save(tx: Tx, a: OrganizationApprovals, at: Date): Promise<void>;
  recordRejection(tx: Tx, kind: ApprovalKind, requestId: string, memberId: string, reason: string | null, at: Date): Promise<void>;
  forRequests(kind: ApprovalKind, ids: string[]): Promise<Map<string, OrganizationApprovals>>;
  waiting(organizationId: string): Promise<WaitingRequest[]>;
  insertPolicyChange(tx: Tx, c: { id: string; organizationId: string; rules: PolicyRule[]; createdBy: string }, at: Date): Promise<void>;
  lockPolicyChange(tx: Tx, id: string): Promise<{ organizationId: string; state: string; rules: PolicyRule[]; createdBy: string } | null>;
  endPolicyChange(tx: Tx, id: string, state: 'applied' | 'rejected', at: Date): Promise<void>;
  emit(tx: Tx, e: { organizationId: string; type: string; subjectId: string; data: Record<string, unknown> }, at: Date): Promise<void>;
}

export interface DeclarationsRepository {
  lockedDecimals(tx: Tx, assetSymbol: string): Promise<number | null>;
  walletOf(tx: Tx, assetSymbol: string): Promise<{ network: string; address: string } | null>;
  hasOpen(tx: Tx, organizationId: string): Promise<boolean>;
  amountsTaken(tx: Tx, assetSymbol: string, lo: bigint, hi: bigint, quarantineStart: Date): Promise<bigint[]>;
  insertOpen(tx: Tx, n: NewDeclaration): Promise<Declaration | null>;
  cancel(tx: Tx, id: string, at: Date): Promise<Declaration>;
  expireDue(tx: Tx, now: Date, scope?: { organizationId: string; assetSymbol: string }): Promise<number>;
  lockFor(tx: Tx, organizationId: string, id: string): Promise<Declaration | null>;
}

export interface DepositsRepository {
  unattributedIn(tx: Tx, id: string): Promise<Deposit>;
  attribute(tx: Tx, id: string, at: Date, organizationId: string): Promise<Deposit>;
  recordArrival(
    tx: Tx,
    id: string,
    at: Date,
    r: { assetSymbol: string; network: string; amount: bigint; txid: string; unmatchable?: boolean; reference?: string },
  ): Promise<Deposit>;
  /** Which of these txids are recorded already. */
  recordedTxids(txids: string[]): Promise<Set<string>>;
}

export interface DestinationsRepository {
  getIn(tx: Tx, id: string): Promise<DestinationRow | null>;
  listedKind(tx: Tx, assetSymbol: string): Promise<'fiat' | 'crypto' | null | undefined>;
  insert(tx: Tx, organizationId: string, d: NewDestination, at: Date): Promise<DestinationRow | null>;
  isListed(tx: Tx, assetSymbol: string): Promise<boolean>;
  markRegisteredInMarket(tx: Tx, id: string, at: Date): Promise<DestinationRow | null>;
  lockState(tx: Tx, id: string): Promise<string | null>;
  markPending(tx: Tx, id: string): Promise<void>;
  activate(tx: Tx, id: string, at: Date): Promise<void>;
  reject(tx: Tx, id: string, at: Date): Promise<void>;
  /** The sealed account number and holder document of one destination, for `openDestination`; null when there is none. */
  sealed(id: string): Promise<{ id: string; organizationId: string; accountNumberEnc: string; holderDocumentEnc: string } | null>;
}

export interface KeysRepository {
  insert(tx: Tx, id: string, at: Date, r: NewKey): Promise<void>;
  lock(tx: Tx, id: string): Promise<{ id: string; organizationId: string; revokedAt: Date | null } | null>;
  markRevoked(tx: Tx, id: string, at: Date): Promise<void>;
  revokeAllOf(tx: Tx, memberId: string, at: Date): Promise<string[]>;
  /** Remembers that the key was used at `at`; written with the others used meanwhile, a few seconds later. */
  touch(keyId: string, at: Date): void;
  /** Writes the uses remembered so far now (one statement). */
  flushLastUsed(): Promise<void>;
}

export interface LiabilitiesRepository {
  hasDaily(day: string): Promise<boolean>;
  /** Per organization and asset, the sum of its postings (available + held) in the log's entries with index < treeSize, when not zero. */
  owedAt(treeSize: number): Promise<{ assets: Array<{ symbol: string; decimals: number }>; owed: Owed[] }>;
  save(tx: Tx, s: NewSnapshot): Promise<boolean>;
}

export interface MailRepository {
  /** Forgets mails sent or given up before `before`. */
  purgeFinished(before: Date): Promise<void>;
  advanceEventCursor(tx: Tx, last: { txid: string; seq: string }): Promise<void>;
  audience(tx: Tx, organizationId: string): Promise<{ organization: string; recipients: MailRecipient[] }>;
  approvers(tx: Tx, e: { organizationId: string; kind: string; requestId: string; initiatorMemberId: string }): Promise<ApprovalAudience>;
  claimDue(limit: number, leaseMs: number): Promise<ClaimedMail[]>;
  createReset(kind: PersonKind, email: string, personId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  enqueue(m: { id: string; kind: MailKind; to: string; sealed: string }): Promise<void>;
  enqueueNotification(tx: Tx, m: { id: string; to: string; sealed: string }, at: Date): Promise<void>;
  eventsAfter(tx: Tx, from: { txid: string; seq: string }, limit: number): Promise<MailedEvent[]>;
  lockEventCursor(tx: Tx): Promise<{ txid: string; seq: string }>;
  markFailed(id: string, error: string, retryAt: Date | null): Promise<void>;
  markSent(id: string): Promise<void>;
  reset(
    kind: PersonKind,
    tokenHash: string,
  ): Promise<{ email: string; personId: string | null; expiresAt: Date; usedAt: Date | null } | null>;
  setLang(kind: PersonKind, id: string, lang: string): Promise<void>;
  spendReset(tx: Tx, kind: PersonKind, tokenHash: string, personId: string, at: Date): Promise<boolean>;
}

export interface MarketAssetsRepository {
  carriesDecimals(tx: Tx, symbol: string, now: Date): Promise<boolean>;
  get(symbol: string): Promise<MarketAsset | null>;
  isHeld(tx: Tx, symbol: string): Promise<boolean>;
  isListed(tx: Tx, symbol: string): Promise<boolean>;
  lock(tx: Tx, symbol: string): Promise<MarketAsset | null>;
  upsert(tx: Tx, at: Date, symbol: string, decimals: number, kind: 'fiat' | 'crypto' | null): Promise<void>;
  /** Every listed asset's decimals, by symbol. */
  decimalsBySymbol(): Promise<Map<string, number>>;
}

export interface MarketPairsRepository {
  delete(tx: Tx, base: string, quote: string): Promise<boolean>;
  get(base: string, quote: string): Promise<PricedPair | null>;
  lockTerms(tx: Tx, base: string, quote: string): Promise<StoredPairTerms | null>;
  upsert(tx: Tx, at: Date, base: string, quote: string, t: PairTerms): Promise<void>;
}

/** Invitations counted over a window: how many, and when the oldest of them was sent. */
export interface InvitationsSent {
  count: number;
  oldest: Date | null;
}

export interface MembersRepository {
  /** `sent`: the inviting member's actor and the invitee's address, when a member sends it (they are counted). */
  addInvitation(
    tx: Tx,
    memberId: string,
    at: Date,
    invitation: { tokenHash: string; expiresAt: Date },
    sent?: { by: string; email: string },
  ): Promise<void>;
  /** Holds, until `tx` ends, the counts of the invitations `by` sends and `email` receives (one counter at a time each). */
  lockInvitationCounts(tx: Tx, by: string, email: string): Promise<void>;
  /** The invitations sent by a member (`by`) or to an address (`email`) since `since`. */
  invitationsSince(tx: Tx, who: { by: string } | { email: string }, since: Date): Promise<InvitationsSent>;
  emailInUse(tx: Tx, organizationId: string, email: string): Promise<boolean>;
  endSessions(tx: Tx, id: string, at: Date): Promise<void>;
  insert(tx: Tx, id: string, at: Date, organizationId: string, r: NewMember): Promise<Member>;
  lock(tx: Tx, id: string, organizationId?: string): Promise<Member | null>;
  markRemoved(tx: Tx, id: string, at: Date): Promise<void>;
  roleIn(tx: Tx, id: string): Promise<{ organizationId: string; permissions: string[] } | null>;
  setPermissions(tx: Tx, id: string, at: Date, permissions: string[]): Promise<Member>;
  spendInvitations(tx: Tx, memberId: string, at: Date): Promise<void>;
}

export interface OrdersRepository {
  /** Writes a new order (its hold taken in the same transaction). */
  insert(tx: Tx, o: Order): Promise<void>;
  belongsTo(tx: Tx, orderId: string, organizationId: string): Promise<boolean>;
  decide(
    tx: Tx,
    orderId: string,
    to: 'approved' | 'rejected' | 'cancelled',
    at: Date,
    reason: string | null,
  ): Promise<{ before: Order; after: Order }>;
  get(id: string): Promise<Order | null>;
  lockPending(tx: Tx, orderId: string): Promise<Order>;
  settle(
    tx: Tx,
    orderId: string,
    to: 'completed' | 'failed',
    at: Date,
    set: { proceeds?: bigint; reason?: string; venue?: string; venueReference?: string },
  ): Promise<Order | null>;
  stuckApproved(before: Date, limit?: number): Promise<Order[]>;
}

/** Events no write of a record marks (the moment a destination's cooldown ends). */
export interface EventsRepository {
  /** Writes destination.usable for each destination usable at `now` that has none yet; how many. */
  emitUsableDestinations(now: Date): Promise<number>;
}

/** Idempotency-Key answers past their retention. */
export interface IdempotencyKeysRepository {
  /** Deletes keys past their retention (an abandoned claim too), some at a time; how many. */
  purgeExpired(limit?: number): Promise<number>;
}

export interface QuotesRepository {
  /** Deletes unaccepted quotes that expired before `before`, some at a time; how many. */
  purgeExpired(before: Date, limit?: number): Promise<number>;
  /** Keeps a quote so that it can be accepted once, with what each venue offered for it (several venues). */
  create(tx: Tx, quote: Quote, offers?: readonly QuoteOffer[]): Promise<void>;
  /** What each venue offered for the quote, in the order the venues were listed; empty when one price was read. */
  offers(quoteId: string): Promise<QuoteOffer[]>;
  /** The organization's quote (another's is none), locked until the transaction ends, as an order accepting it reads it. */
  lockToAccept(tx: Tx, organizationId: string, id: string): Promise<QuoteToAccept | null>;
  /** Marks the quote accepted. */
  consume(tx: Tx, id: string, at: Date): Promise<void>;
}

export interface OrganizationsRepository {
  existsIn(tx: Tx, id: string): Promise<boolean>;
  insert(tx: Tx, id: string, at: Date, r: { name: string; status: OrgStatus; limits: Limits }): Promise<Organization>;
  lock(tx: Tx, id: string): Promise<Organization | null>;
  patch(tx: Tx, id: string, at: Date, patch: { status?: OrgStatus; limits?: Limits; requireTotp?: boolean }): Promise<Organization>;
}

export interface PeopleRepository {
  activate(tx: Tx, kind: PersonKind, id: string, at: Date): Promise<void>;
  activateInvited(tx: Tx, kind: PersonKind, id: string, at: Date): Promise<string | null>;
  activateTotp(tx: Tx, kind: PersonKind, id: string, sealed: string, step: number, recoveryHashes: string[], at: Date): Promise<void>;
  activeByEmail(kind: PersonKind, email: string): Promise<PersonCredentials[]>;
  /** The address of a member of the organization; null when there is no such member. */
  emailOfMember(organizationId: string, id: string): Promise<string | null>;
  /** The organizations in which the address is an active member. */
  activeMemberOrganizations(email: string): Promise<string[]>;
  /** The organizations' names of these members, by member id (what a mail to one of several accounts names). */
  organizationsOfMembers(ids: readonly string[]): Promise<Map<string, string>>;
  clearFailures(tx: Tx, key: string): Promise<void>;
  countAttempt(tx: Tx, k: ThrottleKey, now: Date, windowStart: Date): Promise<boolean>;
  createInvitation(tx: Tx, kind: PersonKind, id: string, tokenHash: string, expiresAt: Date, at: Date): Promise<void>;
  credentialsOf(kind: PersonKind, id: string): Promise<PersonCredentials | null>;
  endSession(tx: Tx, idHash: string, at: Date): Promise<void>;
  endSessionsOf(tx: Tx, kind: PersonKind, id: string, at: Date, keepHash?: string | null): Promise<void>;
  insertSession(tx: Tx, s: { idHash: string; kind: PersonKind; subjectId: string; at: Date; expiresAt: Date }): Promise<void>;
  invitedEmail(kind: PersonKind, tokenHash: string): Promise<string | null>;
  lockedUntil(keys: string[]): Promise<Date | null>;
  putCredentials(tx: Tx, kind: PersonKind, id: string, set: CredentialsSet, at: Date): Promise<void>;
  releaseAttempt(tx: Tx, k: { key: string; limit: number }): Promise<void>;
  touchSession(tx: Tx, idHash: string, at: Date): Promise<void>;
  useInvitation(tx: Tx, kind: PersonKind, tokenHash: string, at: Date): Promise<string | null>;
  useRecoveryCode(tx: Tx, kind: PersonKind, id: string, hash: string, at: Date): Promise<boolean>;
  useTotpStep(tx: Tx, kind: PersonKind, id: string, step: number, at: Date): Promise<boolean>;
}

export interface PlatformStateRepository {
  /** Refuses (ledger.ledger_not_reconciled) while a reconciliation mismatch stops money from moving; read under a share lock. */
  assertReconciled(tx: Tx): Promise<void>;
}

export interface ReconciliationRepository {
  books(tx: Tx): Promise<Map<string, bigint>>;
  lockState(tx: Tx): Promise<LockedPlatformState>;
  markReconciled(tx: Tx, at: Date): Promise<void>;
  recordRun(
    tx: Tx,
    id: string,
    at: Date,
    r: { actor: string; matched: boolean; source: 'given' | 'venue'; figures: Figure[]; stop: boolean },
  ): Promise<void>;
  state(): Promise<PlatformStateRow>;
}

/** What an organization chose for its reports (migrations/080); null fields: the default applies. */
export interface ReportingChoice {
  reportingCurrency: string | null;
  language: 'en' | 'es' | null;
  updatedAt: Date | null;
}

export interface ReportingRepository {
  lockReporting(tx: Tx, organizationId: string): Promise<ReportingChoice | null>;
  saveReporting(tx: Tx, organizationId: string, c: ReportingChoice, by: string): Promise<void>;
}

export interface SettingsRepository {
  setIfAbsent(key: string, value: string): Promise<string>;
}

export interface StaffRepository {
  activeAdminCount(tx: Tx): Promise<number>;
  emailTaken(tx: Tx, email: string): Promise<boolean>;
  insert(tx: Tx, r: { id: string; name: string; email: string; role: StaffRole; status: 'invited' | 'active'; at: Date }): Promise<Staff>;
  insertToken(tx: Tx, t: { id: string; staffId: string; name: string; prefix: string; secretHash: string; at: Date }): Promise<StaffToken>;
  lock(tx: Tx, id: string): Promise<Staff | null>;
  lockAdmins(tx: Tx): Promise<void>;
  lockToken(tx: Tx, staffId: string, tokenId: string): Promise<StaffToken | null>;
  revokeToken(tx: Tx, tokenId: string, at: Date): Promise<void>;
  revokeTokensOf(tx: Tx, staffId: string, at: Date): Promise<void>;
  touchToken(tx: Tx, tokenId: string, at: Date): Promise<void>;
  update(tx: Tx, id: string, set: { role?: StaffRole; status?: 'removed' }, at: Date): Promise<Staff>;
}

/** The journal log (docs/transparency.md). */
export interface TransparencyRepository {
  lockHead(tx: Tx): Promise<LogHead>;
  finishedEntriesAfter(tx: Tx, after: LogHead['last'], limit: number): Promise<FinishedEntry[]>;
  grow(
    tx: Tx,
    g: {
      from: number;
      entryIds: string[];
      leafHashes: Buffer[];
      nodes: Array<{ level: number; index: number; hash: Buffer }>;
      frontier: Buffer[];
      last: LogHead['last'];
      root: Buffer;
      note: string;
      at: Date;
    },
  ): Promise<void>;
  /** The committed entries not in the log now (after the head's last entry). */
  unloggedEntryIds(): Promise<string[]>;
  /** How many of `entryIds` are in the log. */
  loggedCount(entryIds: readonly string[]): Promise<number>;
  latestCheckpoint(): Promise<{ size: number; root: Buffer; note: string; createdAt: Date } | null>;
}

export interface WalletsRepository {
  delete(tx: Tx, assetSymbol: string): Promise<DepositWallet | null>;
  lockFor(tx: Tx, assetSymbol: string): Promise<DepositWallet | null>;
  lockVenueWallet(tx: Tx, assetSymbol: string, network: string): Promise<DepositWallet | null>;
  setAddress(tx: Tx, at: Date, assetSymbol: string, address: string): Promise<DepositWallet>;
  upsert(tx: Tx, at: Date, r: { assetSymbol: string; network: string; address: string; source: WalletSource }): Promise<DepositWallet>;
}

/** What signing an attempt to an endpoint needs. */
export interface EndpointSigning {
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
}

/** Declared as store/webhooks-store.ts has them today. */
export interface WebhooksRepository {
  signingOf(organizationId: string, id: string): Promise<EndpointSigning | undefined>;
  /** Forgets deliveries that finished before `before`; how many. */
  purgeFinished(before: Date): Promise<number>;
  /** Nudges the delivery worker that deliveries may have become due. */
  readonly wakes: { nudge(): void };
  claim(now: Date, leaseMs: number, limit: number, perEndpoint?: number): Promise<ClaimedDelivery[]>;
  /** Runs the delivery worker's `f` with its claims and outcomes ahead of the requests' statements. */
  onWorkerLane<T>(f: () => Promise<T>): Promise<T>;
  countLocked(tx: Tx, organizationId: string): Promise<number>;
  delete(tx: Tx, organizationId: string, id: string): Promise<WebhookEndpoint | undefined>;
  disable(tx: Tx, endpointId: string, failingSince: Date, reason: string, at: Date): Promise<WebhookEndpoint | undefined>;
  enable(tx: Tx, organizationId: string, id: string, at: Date): Promise<WebhookEndpoint | undefined>;
  eventSeq(tx: Tx, organizationId: string, eventId: string): Promise<string | null>;
  exists(tx: Tx, organizationId: string, endpointId: string): Promise<boolean>;
  insert(
    tx: Tx,
    e: { id: string; organizationId: string; url: string; types: string[] | null; secretSealed: string },
    at: Date,
  ): Promise<WebhookEndpoint>;
  lockStatus(
    tx: Tx,
    organizationId: string,
    id: string,
  ): Promise<{ status: WebhookEndpoint['status']; disabledReason: string | null } | undefined>;
  recordDelivered(c: ClaimedDelivery, o: AttemptOutcome): Promise<boolean>;
  recordFailed(
    c: ClaimedDelivery,
    o: AttemptOutcome,
    retryAt: Date | null,
  ): Promise<{ status: string; failingSince: Date } | undefined | null>;
  resend(tx: Tx, endpointId: string, eventSeq: string, at: Date): Promise<void>;
  rotate(
    tx: Tx,
    organizationId: string,
    id: string,
    newSealed: string,
    previousUntil: Date,
    at: Date,
  ): Promise<WebhookEndpoint | undefined>;
}

export interface WithdrawalsRepository {
  belongsTo(tx: Tx, id: string, organizationId: string): Promise<boolean>;
  decide(
    tx: Tx,
    id: string,
    state: 'approved' | 'rejected' | 'cancelled',
    reason: string | null,
    at: Date,
  ): Promise<(WithdrawalRow & { holdId: string }) | null>;
  destinationFor(tx: Tx, id: string): Promise<DestinationForRequest | undefined>;
  insert(tx: Tx, w: WithdrawalRow & { holdId: string }): Promise<void>;
  lockPending(tx: Tx, id: string): Promise<WithdrawalRow | null>;
  marketDecimals(tx: Tx, assetSymbol: string): Promise<number | null>;
  settle(
    tx: Tx,
    id: string,
    to: 'completed' | 'failed',
    at: Date,
    set: { payoutReference?: string; reason?: string; txid?: string },
  ): Promise<(WithdrawalRow & { holdId: string }) | null>;
  stateIn(tx: Tx, id: string): Promise<WithdrawalState | null>;
  /** Records the txid of a completed withdrawal, in the caller's transaction; answers it. */
  setTxid(tx: Tx, id: string, txid: string): Promise<string>;
  /** Where a withdrawal goes when its destination is a crypto address; null for a bank account or no such withdrawal. */
  cryptoTarget(id: string): Promise<CryptoTarget | null>;
  /** Approved withdrawals to crypto addresses, oldest first (to follow at the venue). */
  approvedCrypto(limit?: number): Promise<string[]>;
}

/** An approved (or any) withdrawal to a crypto address: what the venue needs to send it. */
export interface CryptoTarget {
  withdrawalId: string;
  state: WithdrawalState;
  assetSymbol: string;
  assetDecimals: number;
  amount: bigint;
  network: string;
  address: string;
  memo: string | null;
}

/** The set use cases receive: the unit of work and every repository. */
/** Requests the sandbox decides by itself (docs/sandbox.md), still pending. */
export interface MagicPending {
  orders: Array<{ id: string; organizationId: string; amount: bigint }>;
  withdrawals: Array<{ id: string; organizationId: string; amount: bigint }>;
  declarations: Array<{ id: string; organizationId: string; assetSymbol: string; network: string | null; expectedAmount: bigint }>;
}

/** store/sandbox-store.ts. */
export interface SandboxRepository {
  /** Pending orders and withdrawals, and open declarations, whose amount ends in a magic figure; at most `limit` of each, oldest first. */
  magicPending(limit: number): Promise<MagicPending>;
}

export interface Repositories {
  readonly uow: UnitOfWork;
  readonly audit: AuditTrail;
  readonly ledger: LedgerRepository;
  readonly holds: HoldsRepository;
  readonly accounts: AccountsRepository;
  readonly approvals: ApprovalsRepository;
  readonly controls: ControlsRepository;
  readonly operatorPolicy: OperatorPolicyRepository;
  readonly staffRequests: StaffRequestsRepository;
  readonly declarations: DeclarationsRepository;
  readonly deposits: DepositsRepository;
  readonly destinations: DestinationsRepository;
  readonly keys: KeysRepository;
  readonly liabilities: LiabilitiesRepository;
  readonly events: EventsRepository;
  readonly idempotency: IdempotencyKeysRepository;
  readonly mail: MailRepository;
  readonly marketAssets: MarketAssetsRepository;
  readonly marketPairs: MarketPairsRepository;
  readonly members: MembersRepository;
  readonly orders: OrdersRepository;
  readonly organizations: OrganizationsRepository;
  readonly people: PeopleRepository;
  readonly platform: PlatformStateRepository;
  readonly quotes: QuotesRepository;
  readonly reconciliation: ReconciliationRepository;
  readonly venueOrders: VenueOrdersRepository;
  readonly sandbox: SandboxRepository;
  readonly settings: SettingsRepository;
  readonly staff: StaffRepository;
  readonly transparency: TransparencyRepository;
  readonly treasury: ReportingRepository;
  readonly wallets: WalletsRepository;
  readonly webhooks: WebhooksRepository;
  readonly withdrawals: WithdrawalsRepository;
}

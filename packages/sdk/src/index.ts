export { Cambio, SANDBOX_URL, DEFAULT_TIMEOUT_MS, DEFAULT_CLOCK_SKEW_MS, type CambioOptions } from './client.ts';
export { CambioOperator, type CambioOperatorOptions } from './operator/client.ts';
export { CambioPortal, type CambioPortalOptions } from './portal/client.ts';
export type * from './portal/types.ts';
export type {
  PolicyPutResult,
  PortalApprovalOutcome,
  PortalAuditEntry,
  PortalPolicy,
  PortalPolicyRule,
  PortalPolicyRuleInput,
  PortalWaitingApproval,
} from './portal/controls.ts';
export * from './errors.ts';
export { ActionKey, type WriteOptions } from './action-key.ts';
export { Money, formatMinor, parseDecimal, type MoneyLike } from './money.ts';
export { paginate, collect, type Page, type ListParams } from './paginate.ts';
export { RETRY_DEFAULTS, backoffDelay, parseRetryAfter, retryAdvice, outcomeUnknown, type RetryOptions, type RetryEvent } from './retry.ts';
export { parseJsonLossless, quoteLargeIntegers, toAmounts, type Amounts } from './json.ts';
export type { CambioEvent, FetchLike } from './http.ts';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders, type VerifyWebhookOptions } from './webhooks.ts';
export type { Creation, CreationOutcome } from './resources/creation.ts';
export type { Client } from './resources/client.ts';
export {
  openSignedNote,
  verifyCheckpoint,
  verifyConsistency,
  verifyInclusion,
  type Checkpoint,
  type InclusionProof,
  type TreeHead,
} from './transparency.ts';
export { cosignedBy, requireCosignatures, CosignatureError } from './cosignatures.ts';
export { LogMonitor, LogForkError, webStorage, type LogMonitorState, type LogMonitorStorage, type LogSource } from './log-monitor.ts';
export {
  verifyLiabilities,
  openLiabilities,
  expectedLiabilities,
  liabilityLeafHash,
  type PublishedLiabilities,
  type OwnLiabilities,
  type OwnLiabilityPart,
  type ExpectedLiabilities,
  type LiabilitiesCheck,
  type LedgerReader,
} from './liabilities.ts';
export type { EntryCheck, EntryCheckOptions } from './resources/transparency.ts';
export { leafMovementProblem, type LedgerRowMovement } from './entry-check.ts';
export type { Balance } from './resources/balances.ts';
export type { Valuation, BalanceHistory, StatementOptions } from './resources/treasury.ts';
export type { LedgerEntry, LedgerFilters } from './resources/ledger.ts';
export type { MarketPair } from './resources/market.ts';
export type { CreatedFilters } from './resources/list.ts';
export type { Quote, CreateQuoteParams } from './resources/quotes.ts';
export type { Order, OrderFilters } from './resources/orders.ts';
export type { DepositWallet, DepositDeclaration, Deposit, DeclareDepositParams, DepositFilters } from './resources/deposits.ts';
export type { OrganizationEvent, OrganizationEventType, EventsParams } from './resources/events.ts';
export type {
  WebhookEndpoint,
  WebhookWithSecret,
  WebhookDelivery,
  WebhookHealth,
  WebhookEventType,
  WebhookReplay,
  WebhookTestResult,
  CreateWebhookParams,
} from './resources/webhooks.ts';
export type { SandboxDepositParams } from './resources/sandbox.ts';
export type {
  WithdrawalDestination,
  Withdrawal,
  CreateWithdrawalParams,
  RegisterBankDestinationParams,
  RegisterCryptoDestinationParams,
  WithdrawalFilters,
} from './resources/withdrawals.ts';
export type * from './operator/organizations.ts';
export type * from './operator/market.ts';
export type * from './operator/requests.ts';
export type * from './operator/deposits.ts';
export type * from './operator/reconciliation.ts';
export type * from './operator/liabilities.ts';
export type * from './operator/session.ts';
export type * from './operator/staff.ts';
export type * from './operator/venue.ts';
export type * from './operator/policies.ts';
export type * from './operator/queue.ts';
export type { ClientStatus, ErrorCode, Permission, Scope } from '@cambio/contract';

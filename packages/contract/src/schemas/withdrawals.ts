import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AssetDecimals, AssetSymbol, CreatedRange, DateTime, Id, ListQuery, Money, Nullable } from './common.ts';
import { ApprovalFields } from './approvals.ts';
import { OrganizationApprovals } from './controls.ts';

// Printable text: no control characters (they would end up in logs and in the operator's screens).
const Text = (minLength: number, maxLength: number, description?: string) =>
  Type.String({ minLength, maxLength, pattern: '^[^\\u0000-\\u001F\\u007F]+$', ...(description ? { description } : {}) });

export const AccountKind = Type.Unsafe<'savings' | 'checking'>({ type: 'string', enum: ['savings', 'checking'] });
export type AccountKind = Static<typeof AccountKind>;

/** RegisterBankDestination (spec: all required). The account number and holder document are stored encrypted. */
export const RegisterBankDestination = Type.Object(
  {
    label: Text(1, 80, 'a name the organization gives the destination'),
    assetSymbol: AssetSymbol,
    bankName: Text(2, 80),
    accountKind: AccountKind,
    accountNumber: Type.String({
      minLength: 4,
      maxLength: 34,
      pattern: '^(?=(?:[^0-9]*[0-9]){4})[0-9A-Za-z -]+$',
      description: 'digits and letters (spaces and dashes allowed), at least 4 digits; never returned in full',
    }),
    holderName: Text(2, 120),
    holderDocument: Type.String({
      minLength: 4,
      maxLength: 32,
      pattern: '^[0-9A-Za-z. -]+$',
      description: 'letters, digits, dots, dashes and spaces (e.g. "EIN 12-3456789"); never returned',
    }),
  },
  { additionalProperties: false },
);
export type RegisterBankDestination = Static<typeof RegisterBankDestination>;

/** RegisterCryptoDestination: an address on a network the platform pays the asset out on. */
export const RegisterCryptoDestination = Type.Object(
  {
    label: Text(1, 80, 'a name the organization gives the destination'),
    assetSymbol: AssetSymbol,
    network: Type.String({
      minLength: 1,
      maxLength: 32,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'the chain, named as in GET /deposits/wallets (e.g. BTC, ETH, bitcoin)',
    }),
    address: Type.String({ minLength: 1, maxLength: 128, pattern: '^[ ]*[0-9A-Za-z]+[ ]*$', description: 'checked for the network' }),
    memo: Type.Optional(Text(1, 64, 'a memo or tag the receiver needs')),
  },
  { additionalProperties: false },
);
export type RegisterCryptoDestination = Static<typeof RegisterCryptoDestination>;

/** Element of GET /withdrawals/destinations and the data of a registration. */
export const WithdrawalDestination = Type.Object({
  id: Type.String(),
  label: Type.String(),
  assetSymbol: Type.String(),
  summary: Type.String({
    description: 'a bank account masked (bank, kind and the last digits); an address as its first and last characters and network',
  }),
  usable: Type.Boolean({ description: 'the cooldown has passed and the operator registered it in the market' }),
  createdAt: DateTime,
  kind: Type.Optional(
    Type.Unsafe<'crypto'>({ type: 'string', enum: ['crypto'], description: 'crypto: an address (a bank account has no kind)' }),
  ),
  network: Type.Optional(Type.String({ description: 'crypto: the chain' })),
  address: Type.Optional(Type.String({ description: 'crypto: the whole address' })),
  memo: Type.Optional(Nullable(Type.String({ description: 'crypto: the memo or tag, if any' }))),
  state: Type.Optional(
    Type.Unsafe<'pending_approval' | 'active' | 'rejected'>({
      type: 'string',
      enum: ['pending_approval', 'active', 'rejected'],
      description: "only when a destination rule matched: pending_approval until the organization's members approve it",
    }),
  ),
  approvals: Type.Optional(OrganizationApprovals),
});
export type WithdrawalDestination = Static<typeof WithdrawalDestination>;

/** The operator's view of a destination: masked (the full account number only through …/reveal, with step-up). */
export const OperatorDestination = Type.Composite([
  WithdrawalDestination,
  Type.Object({
    organizationId: Type.String(),
    bankName: Type.String(),
    accountKind: Type.String(),
    holderName: Type.String(),
    cooldownUntil: DateTime,
    registeredInMarketAt: Nullable(DateTime),
    updatedAt: DateTime,
  }),
]);
export type OperatorDestination = Static<typeof OperatorDestination>;

/** Body of POST /operator/v1/destinations/:id/reveal: the step-up proof (a fresh TOTP code of the person's own). */
export const RevealDestination = Type.Object(
  { code: Type.Optional(Type.String({ maxLength: 64, description: 'a fresh code of your authenticator app' })) },
  { additionalProperties: false },
);
export type RevealDestination = Static<typeof RevealDestination>;

/** Answer of POST /operator/v1/destinations/:id/reveal: the full account number, to an approver or admin after step-up. */
export const RevealedDestination = Type.Object({ id: Type.String(), organizationId: Type.String(), accountNumber: Type.String() });
export type RevealedDestination = Static<typeof RevealedDestination>;

/** RequestWithdrawal (spec: all required). */
export const RequestWithdrawal = Type.Object(
  {
    destinationId: Id,
    assetSymbol: AssetSymbol,
    assetDecimals: AssetDecimals,
    amountMinor: AmountInput,
  },
  { additionalProperties: false },
);
export type RequestWithdrawal = Static<typeof RequestWithdrawal>;

/** docs/design/money-and-states.md: pending_approval → approved → completed | failed (hold released), or rejected (hold released), or cancelled by its organization (hold released). */
export const WithdrawalState = Type.Unsafe<'pending_approval' | 'approved' | 'completed' | 'rejected' | 'failed' | 'cancelled'>({
  type: 'string',
  enum: ['pending_approval', 'approved', 'completed', 'rejected', 'failed', 'cancelled'],
});
export type WithdrawalState = Static<typeof WithdrawalState>;

/** The client's list: one state, a creation window. */
export const WithdrawalsQuery = ListQuery({ state: Type.Optional(WithdrawalState), ...CreatedRange });

export const Withdrawal = Type.Object({
  id: Type.String(),
  state: WithdrawalState,
  money: Money,
  destinationId: Type.String(),
  destinationSummary: Type.String(),
  reason: Nullable(Type.String({ description: "the operator's reason, when one was given" })),
  txid: Nullable(Type.String({ description: "a crypto withdrawal's transaction id on its chain, once known" })),
  createdAt: DateTime,
  updatedAt: DateTime,
  approvals: Type.Optional(OrganizationApprovals),
});
export type Withdrawal = Static<typeof Withdrawal>;

// The operator's record carries the staff's own approvals under the same name (four-eyes).
export const OperatorWithdrawal = Type.Composite([
  Type.Omit(Withdrawal, ['approvals']),
  Type.Object({
    organizationId: Type.String(),
    ...ApprovalFields,
    payoutReference: Nullable(
      Type.String({
        description: 'the bank transfer that paid it out, or the txid of a crypto withdrawal; null in sandbox for a bank one',
      }),
    ),
    venue: Type.Optional(
      Nullable(
        Type.Object({
          state: Type.String({ description: 'new, sending, unknown, processing, completed or failed' }),
          status: Nullable(Type.String({ description: "the venue's own status" })),
          amount: Type.String({ description: 'what was asked of the venue: the amount plus its network fee' }),
          fee: Type.String(),
          venueWithdrawalId: Nullable(Type.String()),
          reason: Nullable(Type.String()),
        }),
      ),
    ),
  }),
]);
export type OperatorWithdrawal = Static<typeof OperatorWithdrawal>;

/** Body of the operator's approve and reject (both optional). */
export const DecideWithdrawal = Type.Object({ reason: Type.Optional(Text(1, 500)) }, { additionalProperties: false });
export type DecideWithdrawal = Static<typeof DecideWithdrawal>;

/** docs/design/money-and-states.md: staff paid an approved withdrawal out and record the transfer's reference. */
export const RecordPayout = Type.Object(
  {
    payoutReference: Text(1, 200),
    txid: Type.Optional(Text(1, 200, "a crypto withdrawal's transaction id (default: payoutReference)")),
  },
  { additionalProperties: false },
);
export type RecordPayout = Static<typeof RecordPayout>;

/** Why a destination of the member's organization is not usable yet, for people (GET /portal/v1/destinations/waiting). */
export const PortalDestinationWait = Type.Object({
  id: Type.String(),
  cooldownEndsAt: DateTime,
  awaitingOperator: Type.Boolean({ description: 'the operator has not registered it in the market yet' }),
});
export type PortalDestinationWait = Static<typeof PortalDestinationWait>;

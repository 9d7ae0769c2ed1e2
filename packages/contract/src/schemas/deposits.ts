import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, AssetDecimals, AssetSymbol, CreatedRange, DateTime, Id, ListQuery, Money, Nullable } from './common.ts';

/** Spec: Deposit wallet. An asset the platform cannot receive is absent, never listed blank. */
export const DepositWallet = Type.Object({
  assetSymbol: Type.String(),
  network: Type.String({ description: 'the chain; a transfer sent on another one cannot be recovered' }),
  address: Type.String(),
});
export type DepositWallet = Static<typeof DepositWallet>;

/** Spec: DeclareDeposit. */
export const DeclareDeposit = Type.Object(
  {
    assetSymbol: AssetSymbol,
    assetDecimals: AssetDecimals,
    declaredAmountMinor: AmountInput,
  },
  { additionalProperties: false },
);
export type DeclareDeposit = Static<typeof DeclareDeposit>;

export const DeclarationState = Type.Union([
  Type.Literal('open'),
  Type.Literal('matched'),
  Type.Literal('expired'),
  Type.Literal('cancelled'),
]);
export type DeclarationState = Static<typeof DeclarationState>;

/** Spec: Deposit declaration, plus the asset and the declared amount it was made for. */
export const DepositDeclaration = Type.Object({
  id: Type.String(),
  reference: Type.String({ description: 'short code a person can dictate; not the matching key (the amount is)' }),
  state: DeclarationState,
  assetSymbol: Type.String(),
  assetDecimals: Type.Integer(),
  declaredAmountMinor: AmountString,
  expectedAmountMinor: AmountString,
  expectedAmount: Type.String({ description: 'expectedAmountMinor in decimal text with the asset decimals', examples: ['150.37'] }),
  network: Nullable(Type.String()),
  address: Nullable(Type.String()),
  expiresAt: DateTime,
  expiresInSeconds: Type.Integer({ minimum: 0 }),
});
export type DepositDeclaration = Static<typeof DepositDeclaration>;

export const DepositState = Type.Union([Type.Literal('credited'), Type.Literal('unattributed')]);
export type DepositState = Static<typeof DepositState>;

/** A deposit that arrived, as the organization sees it (`GET /api/v1/deposits`). */
export const DepositRecord = Type.Object({
  id: Type.String(),
  state: DepositState,
  money: Money,
  txid: Type.String(),
  network: Type.String(),
  declarationId: Nullable(Type.String({ description: 'the declaration it matched; null when credited by hand' })),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type DepositRecord = Static<typeof DepositRecord>;

// Operator side (docs/operator-guide.md).

export const PutDepositWallet = Type.Object(
  {
    network: Type.String({ minLength: 1, maxLength: 64, pattern: '^\\S(.*\\S)?$' }),
    address: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, pattern: '^\\S+$', description: 'required unless source is "venue"' }),
    ),
    source: Type.Optional(
      Type.Literal('venue', {
        description: "production with a CCXT venue: the address is the venue account's, read from it (docs/market.md)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PutDepositWallet = Static<typeof PutDepositWallet>;

export const RecordArrival = Type.Object(
  {
    assetSymbol: AssetSymbol,
    network: Type.String({ minLength: 1, maxLength: 64 }),
    amountMinor: AmountInput,
    txid: Type.String({ minLength: 1, maxLength: 200, pattern: '^\\S+$' }),
    reference: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          "the deposit reference the client quoted in the transfer's description (K7QM-3XPA); given, the arrival is credited only to the open declaration with this reference and exactly this amount",
      }),
    ),
  },
  { additionalProperties: false },
);
export type RecordArrival = Static<typeof RecordArrival>;

export const AttributeDeposit = Type.Object({ organizationId: Id }, { additionalProperties: false });
export type AttributeDeposit = Static<typeof AttributeDeposit>;

export const OperatorDepositRecord = Type.Composite([DepositRecord, Type.Object({ organizationId: Nullable(Type.String()) })]);
export type OperatorDepositRecord = Static<typeof OperatorDepositRecord>;

/** The client's list: one state, a creation window. */
export const DepositsQuery = ListQuery({ state: Type.Optional(DepositState), ...CreatedRange });
export const OperatorDepositQuery = ListQuery({ state: Type.Optional(DepositState) });

/** `POST /api/v1/sandbox/deposits` (sandbox only): money arriving at the deposit wallet, matched as an operator's arrival. */
export const SandboxDeposit = Type.Object(
  {
    assetSymbol: AssetSymbol,
    network: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "absent: the network of the asset's deposit wallet" })),
    amountMinor: AmountInput,
    txid: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, pattern: '^\\S+$', description: 'absent: one is made up; a txid is recorded once' }),
    ),
  },
  { additionalProperties: false },
);
export type SandboxDeposit = Static<typeof SandboxDeposit>;

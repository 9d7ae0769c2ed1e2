import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, AssetSymbol, DateTime, Nullable, SignedAmountInput } from './common.ts';
import { ClientStatus } from './client.ts';

const Permission = Type.Union([
  Type.Literal('portal:read'), Type.Literal('portal:trade'), Type.Literal('portal:deposit'),
  Type.Literal('portal:destinations'), Type.Literal('portal:withdraw'), Type.Literal('portal:api_keys'),
]);

/** `{"BTC": {"maxOrderMinor": "…", "maxWithdrawalMinor": "…"}}`; `{}` = loaded, no caps; null = not loaded. */
export const LimitsInput = Nullable(Type.Record(Type.String(), Type.Object({
  maxOrderMinor: Type.Optional(Nullable(AmountInput)),
  maxWithdrawalMinor: Type.Optional(Nullable(AmountInput)),
}, { additionalProperties: false })));
export const LimitsWire = Nullable(Type.Record(Type.String(), Type.Object({
  maxOrderMinor: Type.Optional(AmountString),
  maxWithdrawalMinor: Type.Optional(AmountString),
})));

export const CreateOrganization = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  status: Type.Optional(ClientStatus),
  limits: Type.Optional(LimitsInput),
}, { additionalProperties: false });
export const PatchOrganization = Type.Object({
  status: Type.Optional(ClientStatus),
  limits: Type.Optional(LimitsInput),
}, { additionalProperties: false });
export const OrganizationRecord = Type.Object({
  id: Type.String(), name: Type.String(), status: ClientStatus, limits: LimitsWire,
  canOperate: Type.Boolean(), createdAt: DateTime, updatedAt: DateTime,
});
export type OrganizationRecord = Static<typeof OrganizationRecord>;

export const CreateMember = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' }),
  permissions: Type.Array(Permission, { uniqueItems: true }),
}, { additionalProperties: false });
export const PatchMember = Type.Object({ permissions: Type.Array(Permission, { uniqueItems: true }) }, { additionalProperties: false });
export const MemberRecord = Type.Object({
  id: Type.String(), organizationId: Type.String(), name: Type.String(), email: Type.String(),
  permissions: Type.Array(Type.String()), createdAt: DateTime, updatedAt: DateTime,
});
export type MemberRecord = Static<typeof MemberRecord>;

export const IssueApiKey = Type.Object({
  scopes: Type.Array(Type.Union([
    Type.Literal('portal:read'), Type.Literal('portal:trade'), Type.Literal('portal:deposit'),
    Type.Literal('portal:destinations'), Type.Literal('portal:withdraw'),
  ]), { uniqueItems: true, minItems: 1 }),
  expiresAt: Type.Optional(Nullable(DateTime)),
  allowedIps: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 2, maxLength: 45, pattern: '^[0-9a-fA-F:.]+$' }), { maxItems: 50 }))),
}, { additionalProperties: false });
export const IssuedApiKey = Type.Object({
  id: Type.String(), prefix: Type.String(), scopes: Type.Array(Type.String()),
  key: Type.String({ description: 'the whole key; shown only here, never again' }),
  organizationId: Type.String(), memberId: Type.String(), expiresAt: Nullable(DateTime), allowedIps: Nullable(Type.Array(Type.String())),
});
export type IssuedApiKey = Static<typeof IssuedApiKey>;
export const RevokedApiKey = Type.Object({ id: Type.String(), revokedAt: DateTime });

export const CreateAdjustment = Type.Object({
  assetSymbol: AssetSymbol,
  amountMinor: SignedAmountInput,
  reason: Type.String({ minLength: 1, maxLength: 500 }),
}, { additionalProperties: false });
export const AdjustmentResult = Type.Object({
  entryId: Type.String(), organizationId: Type.String(), assetSymbol: Type.String(), assetDecimals: Type.Integer(),
  amountMinor: Type.String(), availableMinor: AmountString,
});

export const PutMarketAsset = Type.Object({ decimals: Type.Integer({ minimum: 0, maximum: 36 }) }, { additionalProperties: false });
export const MarketAssetRecord = Type.Object({ symbol: Type.String(), decimals: Type.Integer() });

export const AuditRecord = Type.Object({
  id: Type.String(), actor: Type.String(), action: Type.String(), subjectType: Type.String(), subjectId: Type.String(),
  before: Type.Unknown(), after: Type.Unknown(), createdAt: DateTime,
});
export type AuditRecord = Static<typeof AuditRecord>;

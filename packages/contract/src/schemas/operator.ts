import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, AssetSymbol, DateTime, Nullable, SignedAmountInput } from './common.ts';
import { ClientStatus } from './client.ts';
import { PERMISSIONS, SCOPES } from '../scopes.ts';

export const PermissionSchema = Type.Union(PERMISSIONS.map((p) => Type.Literal(p)));
export const KeyScopeSchema = Type.Union(SCOPES.map((p) => Type.Literal(p)));

/** `{"BTC": {"maxOrderMinor": "…", "maxWithdrawalMinor": "…"}}`; `{}` = loaded, no caps; null = not loaded. */
export const LimitsInput = Nullable(
  Type.Record(
    Type.String(),
    Type.Object(
      {
        maxOrderMinor: Type.Optional(Nullable(AmountInput)),
        maxWithdrawalMinor: Type.Optional(Nullable(AmountInput)),
      },
      { additionalProperties: false },
    ),
  ),
);
export const LimitsWire = Nullable(
  Type.Record(
    Type.String(),
    Type.Object({
      maxOrderMinor: Type.Optional(AmountString),
      maxWithdrawalMinor: Type.Optional(AmountString),
    }),
  ),
);

export const CreateOrganization = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    status: Type.Optional(ClientStatus),
    limits: Type.Optional(LimitsInput),
  },
  { additionalProperties: false },
);
export const PatchOrganization = Type.Object(
  {
    status: Type.Optional(ClientStatus),
    limits: Type.Optional(LimitsInput),
    requireTotp: Type.Optional(Type.Boolean({ description: 'members must enrol TOTP before anything but signing in and enrolling' })),
  },
  { additionalProperties: false },
);
export const OrganizationRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: ClientStatus,
  limits: LimitsWire,
  canOperate: Type.Boolean(),
  requireTotp: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type OrganizationRecord = Static<typeof OrganizationRecord>;

export const CreateMember = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' }),
    permissions: Type.Array(PermissionSchema, { uniqueItems: true }),
  },
  { additionalProperties: false },
);
export const PatchMember = Type.Object(
  { permissions: Type.Array(PermissionSchema, { uniqueItems: true }) },
  { additionalProperties: false },
);
/** A one-time invitation (docs/design/people-and-apps.md): the url carries the token in its fragment; 7 days. */
export const InvitationRecord = Type.Object({ url: Type.String(), expiresAt: DateTime });
export const MemberRecord = Type.Object({
  id: Type.String(),
  organizationId: Type.String(),
  name: Type.String(),
  email: Type.String(),
  permissions: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('invited'), Type.Literal('active'), Type.Literal('removed')]),
  createdAt: DateTime,
  updatedAt: DateTime,
  invitation: Type.Optional(InvitationRecord),
});
export type MemberRecord = Static<typeof MemberRecord>;

export const IssueApiKey = Type.Object(
  {
    scopes: Type.Array(KeyScopeSchema, { uniqueItems: true, minItems: 1 }),
    expiresAt: Type.Optional(Nullable(DateTime)),
    allowedIps: Type.Optional(
      Nullable(Type.Array(Type.String({ minLength: 2, maxLength: 45, pattern: '^[0-9a-fA-F:.]+$' }), { maxItems: 50 })),
    ),
  },
  { additionalProperties: false },
);
export const IssuedApiKey = Type.Object({
  id: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  key: Type.String({ description: 'the whole key; shown only here, never again' }),
  organizationId: Type.String(),
  memberId: Type.String(),
  expiresAt: Nullable(DateTime),
  allowedIps: Nullable(Type.Array(Type.String())),
});
export type IssuedApiKey = Static<typeof IssuedApiKey>;
export const RevokedApiKey = Type.Object({ id: Type.String(), revokedAt: DateTime });

export const CreateAdjustment = Type.Object(
  {
    assetSymbol: AssetSymbol,
    amountMinor: SignedAmountInput,
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export const AdjustmentResult = Type.Object({
  entryId: Type.String(),
  organizationId: Type.String(),
  assetSymbol: Type.String(),
  assetDecimals: Type.Integer(),
  amountMinor: Type.String(),
  availableMinor: AmountString,
});

/** `fiat` takes bank destinations, `crypto` crypto addresses; an asset without a kind (absent) takes both. */
export const AssetKind = Type.Unsafe<'fiat' | 'crypto'>({ type: 'string', enum: ['fiat', 'crypto'] });
export const PutMarketAsset = Type.Object(
  {
    decimals: Type.Integer({ minimum: 0, maximum: 36 }),
    kind: Type.Optional(AssetKind),
  },
  { additionalProperties: false },
);
export const MarketAssetRecord = Type.Object({
  symbol: Type.String(),
  decimals: Type.Integer(),
  kind: Type.Optional(AssetKind),
});

export const AuditRecord = Type.Object({
  id: Type.String(),
  actor: Type.String(),
  action: Type.String(),
  subjectType: Type.String(),
  subjectId: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
  createdAt: DateTime,
  actorName: Type.Optional(
    Nullable(
      Type.String({ description: 'the person behind a staff:, member: or key: actor, by their name now (docs/design/people-and-apps.md)' }),
    ),
  ),
  actorEmail: Type.Optional(Nullable(Type.String())),
});
export type AuditRecord = Static<typeof AuditRecord>;

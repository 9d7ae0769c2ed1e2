import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from './common.ts';
import { KeyScopeSchema, PermissionSchema } from './operator.ts';

/** The wire of people, sessions and staff (docs/design/people-and-apps.md). */
const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' });
const PersonStatus = Type.Union([Type.Literal('invited'), Type.Literal('active'), Type.Literal('removed')]);

export const SignIn = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1000 }),
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'a TOTP code or a recovery code' })),
  },
  { additionalProperties: false },
);
export const AcceptInvitation = Type.Object(
  { token: Type.String({ minLength: 20, maxLength: 100 }), password: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);
/** A forgotten password: the mail with a link goes to the email if it is a person's; the answer is the same either way. */
export const RequestPasswordReset = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false });
export const PasswordResetRequested = Type.Object({
  requested: Type.Boolean({ description: "always true: whether the email is a person's is not told" }),
});
/** The token of the mail's link (its fragment) and the new password. */
export const CompletePasswordReset = Type.Object(
  { token: Type.String({ minLength: 20, maxLength: 100 }), password: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);
export const ChangePassword = Type.Object(
  { currentPassword: Type.String({ minLength: 1, maxLength: 1000 }), newPassword: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);
export const TotpConfirm = Type.Object({ code: Type.String({ minLength: 1, maxLength: 20 }) }, { additionalProperties: false });
export const TotpEnrolment = Type.Object({ secret: Type.String(), otpauthUrl: Type.String() });
export const RecoveryCodes = Type.Object({ recoveryCodes: Type.Array(Type.String()) });
export const Changed = Type.Object({ changed: Type.Boolean() });
export const SignedOut = Type.Object({ signedOut: Type.Boolean() });

export const PortalMember = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  permissions: Type.Array(Type.String()),
  status: PersonStatus,
  totpEnrolled: Type.Boolean(),
  createdAt: DateTime,
});
export type PortalMember = Static<typeof PortalMember>;
export const PortalOrganization = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  canOperate: Type.Boolean(),
  requireTotp: Type.Boolean(),
});
/** Whether the platform decides now (the stop while not reconciled), read with the session so every page can say so. */
export const PlatformStatus = Type.Object({
  reconciled: Type.Boolean({
    description:
      'false while the books and the market disagree: orders, withdrawals, declarations and destination registration answer 409 ledger.ledger_not_reconciled; reads and quotes go on',
  }),
  explorers: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: "a block explorer's link per network (upper case), {txid} where the transaction id goes (CAMBIO_EXPLORER_<NETWORK>)",
    }),
  ),
});
export type PlatformStatus = Static<typeof PlatformStatus>;
export const PortalSession = Type.Object({ member: PortalMember, organization: PortalOrganization, platform: PlatformStatus });

export const InviteMember = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }), email: Email, permissions: Type.Array(PermissionSchema, { uniqueItems: true }) },
  { additionalProperties: false },
);
export const Invitation = Type.Object({ url: Type.String(), expiresAt: DateTime });
export const InvitedMember = Type.Object({ member: PortalMember, invitation: Invitation });
export const SetPermissions = Type.Object(
  { permissions: Type.Array(PermissionSchema, { uniqueItems: true }) },
  { additionalProperties: false },
);

export const PortalIssueKey = Type.Object(
  {
    scopes: Type.Array(KeyScopeSchema, { uniqueItems: true, minItems: 1 }),
    name: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: 80,
          pattern: '^[^\\u0000-\\u001F\\u007F]*\\S[^\\u0000-\\u001F\\u007F]*$',
          description: 'what the key is for',
        }),
      ),
    ),
    expiresAt: Type.Optional(Nullable(DateTime)),
    allowedIps: Type.Optional(
      Nullable(Type.Array(Type.String({ minLength: 2, maxLength: 45, pattern: '^[0-9a-fA-F:.]+$' }), { maxItems: 50 })),
    ),
  },
  { additionalProperties: false },
);
export const PortalKey = Type.Object({
  id: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  issuedBy: Type.Object({ id: Type.String(), name: Type.String() }),
  createdAt: DateTime,
  lastUsedAt: Nullable(DateTime),
  expiresAt: Nullable(DateTime),
  allowedIps: Nullable(Type.Array(Type.String())),
  revokedAt: Nullable(DateTime),
  name: Type.Optional(Nullable(Type.String())),
});
export const PortalIssuedKey = Type.Object({
  id: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  key: Type.String({ description: 'the whole key; shown only here' }),
  expiresAt: Nullable(DateTime),
  allowedIps: Nullable(Type.Array(Type.String())),
  name: Type.Optional(Nullable(Type.String())),
  createdAt: DateTime,
});

export const StaffRole = Type.Union([Type.Literal('viewer'), Type.Literal('approver'), Type.Literal('admin'), Type.Literal('auditor')]);
export const StaffRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: StaffRole,
  status: PersonStatus,
  totpEnrolled: Type.Boolean(),
  createdAt: DateTime,
});
export type StaffRecord = Static<typeof StaffRecord>;
export const StaffSession = Type.Object({ staff: StaffRecord });
export const CreateStaff = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }), email: Email, role: StaffRole },
  { additionalProperties: false },
);
export const CreatedStaff = Type.Object({ staff: StaffRecord, invitation: Invitation });
export const PatchStaff = Type.Object({ role: StaffRole }, { additionalProperties: false });
export const CreateStaffToken = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const StaffTokenRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  createdAt: DateTime,
  lastUsedAt: Nullable(DateTime),
  revokedAt: Nullable(DateTime),
});
export const IssuedStaffToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  token: Type.String({ description: 'ops_…; shown only here' }),
  createdAt: DateTime,
});

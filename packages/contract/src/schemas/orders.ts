import { Type, type Static } from '@sinclair/typebox';
import { AmountInput, AmountString, CreatedRange, DateTime, ListQuery, Money, Nullable } from './common.ts';
import { ApprovalFields } from './approvals.ts';
import { OrganizationApprovals } from './controls.ts';

export const CreateOrder = Type.Object({ quoteId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type CreateOrder = Static<typeof CreateOrder>;

/** docs/design/money-and-states.md: pending_approval → approved → completed | failed; pending_approval → rejected, or cancelled by its organization. */
export const OrderState = Type.Union([
  Type.Literal('pending_approval'),
  Type.Literal('approved'),
  Type.Literal('completed'),
  Type.Literal('rejected'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);
export type OrderState = Static<typeof OrderState>;

const orderFields = {
  id: Type.String(),
  state: OrderState,
  quoteId: Type.String(),
  base: Money,
  quote: Money,
  rateQuoteMinor: AmountString,
  reason: Nullable(Type.String({ description: 'why it was rejected or failed' })),
  createdAt: DateTime,
  updatedAt: DateTime,
};

/**
 * An exchange request as its organization sees it: delivers `base`, receives `quote`; `approvals` only
 * when a rule of the organization's policy asked its members to approve it (docs/controls.md).
 */
export const OrderRecord = Type.Object({ ...orderFields, approvals: Type.Optional(OrganizationApprovals) });
export type OrderRecord = Static<typeof OrderRecord>;

/** The operator's view adds the organization and what the venue paid (the difference is revenue). */
export const OperatorOrderRecord = Type.Object({
  ...orderFields,
  organizationId: Type.String(),
  proceedsQuoteMinor: Nullable(AmountString),
  venue: Nullable(Type.String({ description: 'where the desk executed it (production); null in sandbox' })),
  venueReference: Nullable(Type.String({ description: "the venue's reference of the execution (production)" })),
  ...ApprovalFields,
});
export type OperatorOrderRecord = Static<typeof OperatorOrderRecord>;

/**
 * What one connected venue offered when the order's quote was priced (docs/market.md, "Several venues"):
 * its figures, or why it was left out (`leftOut`: the refusal's code, e.g. market.unavailable for a venue
 * down or with a stale book); `chosen` marks the venue the quote took, where the order executes.
 */
export const VenueQuoteOffer = Type.Object({
  venue: Type.String({ description: "the venue's name" }),
  rateQuoteMinor: Nullable(AmountString),
  amountBaseMinor: Nullable(AmountString),
  amountQuoteMinor: Nullable(AmountString),
  proceedsQuoteMinor: Nullable(AmountString, { description: "what the venue would pay for the base amount, net of the pair's fees" }),
  leftOut: Nullable(Type.String({ description: 'the code of the refusal that left this venue out; null when it offered a price' })),
  detail: Nullable(Type.String()),
  chosen: Type.Boolean(),
});
export type VenueQuoteOffer = Static<typeof VenueQuoteOffer>;

/** GET /operator/v1/orders/:id: the order and, priced from venues' books, what each venue offered at quote time. */
export const OperatorOrderDetail = Type.Object({
  ...OperatorOrderRecord.properties,
  offers: Type.Array(VenueQuoteOffer, { description: 'in the order the venues are listed; empty when the pair is not priced from venues' }),
});
export type OperatorOrderDetail = Static<typeof OperatorOrderDetail>;

/** The client's list: one state, a creation window. */
export const OrdersQuery = ListQuery({ state: Type.Optional(OrderState), ...CreatedRange });
export const OperatorOrdersQuery = ListQuery({
  state: Type.Optional(OrderState),
  organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

/** Body of approve and reject; optional. The reason of a rejection is shown to the client. */
export const DecideOrder = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
  { additionalProperties: false },
);
export type DecideOrder = Static<typeof DecideOrder>;

// Printable text: no control characters (they would end up in logs and in the operator's screens).
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[^\\u0000-\\u001F\\u007F]+$' });

/** docs/design/money-and-states.md: the desk executed an approved order. The client receives the quoted amount; proceeds minus it is the platform's. */
export const RecordFill = Type.Object(
  {
    venue: Text(80),
    venueReference: Text(200),
    proceedsQuoteMinor: AmountInput,
  },
  { additionalProperties: false },
);
export type RecordFill = Static<typeof RecordFill>;

/** docs/design/money-and-states.md: an approved order or withdrawal could not be executed or paid: failed, hold released. */
export const RecordFailure = Type.Object({ reason: Text(500) }, { additionalProperties: false });
export type RecordFailure = Static<typeof RecordFailure>;

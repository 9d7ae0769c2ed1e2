import { Type, type Static } from '@sinclair/typebox';
import { AmountString, CreatedRange, DateTime, ListQuery, Money, Nullable } from './common.ts';
import { ApprovalFields } from './approvals.ts';

export const CreateOrder = Type.Object({ quoteId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type CreateOrder = Static<typeof CreateOrder>;

/** CONTRACT §5: pending_approval → approved → completed | failed; pending_approval → rejected. */
export const OrderState = Type.Union([
  Type.Literal('pending_approval'), Type.Literal('approved'), Type.Literal('completed'), Type.Literal('rejected'), Type.Literal('failed'),
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

/** An exchange request as its organization sees it: delivers `base`, receives `quote`. */
export const OrderRecord = Type.Object(orderFields);
export type OrderRecord = Static<typeof OrderRecord>;

/** The operator's view adds the organization and what the venue paid (the difference is revenue). */
export const OperatorOrderRecord = Type.Object({
  ...orderFields,
  organizationId: Type.String(),
  proceedsQuoteMinor: Nullable(AmountString),
  ...ApprovalFields,
});
export type OperatorOrderRecord = Static<typeof OperatorOrderRecord>;

/** The client's list: one state, a creation window. */
export const OrdersQuery = ListQuery({ state: Type.Optional(OrderState), ...CreatedRange });
export const OperatorOrdersQuery = ListQuery({ state: Type.Optional(OrderState) });

/** Body of approve and reject; optional. The reason of a rejection is shown to the client. */
export const DecideOrder = Type.Object({ reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) }, { additionalProperties: false });
export type DecideOrder = Static<typeof DecideOrder>;

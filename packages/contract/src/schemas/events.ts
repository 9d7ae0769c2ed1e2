import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from './common.ts';

/**
 * The event types (docs/api-guide.md, `cancelled` for a request its organization withdrew before a decision, and
 * `webhook.disabled` when a webhook endpoint that kept failing is switched off): the one list, which the
 * schema below and the portal's choice of types are made from.
 */
export const EVENT_TYPES = [
  ...(['created', 'approved', 'completed', 'rejected', 'failed', 'cancelled'] as const).map((s) => `order.${s}` as const),
  ...(['created', 'approved', 'completed', 'rejected', 'failed', 'cancelled'] as const).map((s) => `withdrawal.${s}` as const),
  'deposit.credited',
  ...(['created', 'matched', 'expired', 'cancelled'] as const).map((s) => `declaration.${s}` as const),
  'destination.registered',
  'destination.usable',
  'webhook.disabled',
  // A request waits for the organization's members, one approved it, one rejected it (docs/controls.md).
  ...(['requested', 'given', 'rejected'] as const).map((s) => `approval.${s}` as const),
] as const;

export const EventType = Type.Union(EVENT_TYPES.map((t) => Type.Literal(t)));
export type EventType = Static<typeof EventType>;

/** A state change of one of the organization's records; `data` is the record as its list endpoint shows it. */
export const EventRecord = Type.Object({
  id: Type.String(),
  type: EventType,
  createdAt: DateTime,
  data: Type.Record(Type.String(), Type.Unknown()),
});
export type EventRecord = Static<typeof EventRecord>;

export const EventsQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({ pattern: '^evt_[a-z2-7]{26}$', description: 'the id of the last event already read; absent: from the first' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    subjectId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'only the events of this record (an order, withdrawal, deposit, declaration or destination id)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type EventsQuery = Static<typeof EventsQuery>;

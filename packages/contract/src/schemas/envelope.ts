import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { Nullable, Pagination } from './common.ts';

/** Every response, success or failure, is this envelope (spec: Envelope). */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    success: Type.Boolean(),
    message: Nullable(Type.String()),
    data,
    code: Nullable(Type.String()),
    timestamp: Type.String({ format: 'date-time' }),
    traceId: Nullable(Type.String()),
    pagination: Nullable(Pagination),
  });

export const ErrorEnvelope = Envelope(Type.Null());
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

export interface EnvelopeOf<T> {
  success: boolean;
  message: string | null;
  data: T;
  code: string | null;
  timestamp: string;
  traceId: string | null;
  pagination: Pagination | null;
}

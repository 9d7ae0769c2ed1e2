import { Envelope, ErrorEnvelope } from '@cambio/contract';
import { Type, type TSchema } from '@sinclair/typebox';

/** Response schemas of a route: the success envelope around `data`, and the error envelope. */
export function responses<T extends TSchema>(status: 200 | 201, data: T) {
  return { [status]: Envelope(data), '4xx': ErrorEnvelope, '5xx': ErrorEnvelope } as {
    200: ReturnType<typeof Envelope<T>>;
    '4xx': typeof ErrorEnvelope;
    '5xx': typeof ErrorEnvelope;
  };
}

export function listResponses<T extends TSchema>(item: T) {
  return responses(200, Type.Array(item));
}

/** `:id` of one record. */
export const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const apiKeySecurity: Array<Record<string, string[]>> = [{ apiKey: [] }, { bearer: [] }];

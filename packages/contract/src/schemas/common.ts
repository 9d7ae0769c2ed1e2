import { Type, type TProperties, type TSchema, type Static } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(t: T, options: { description?: string } = {}) => Type.Union([t, Type.Null()], options);

/** Amounts on the wire (responses): a string of decimal digits, with a leading `-` only for signed ledger amounts. */
export const AmountString = Type.String({
  pattern: '^[0-9]{1,78}$',
  description: 'integer in minimum units, as decimal digits',
  examples: ['150000'],
});
export const SignedAmountString = Type.String({
  pattern: '^-?[0-9]{1,78}$',
  description: 'signed integer in minimum units, as decimal digits',
});

/**
 * A JSON integer beyond 2^53. The server's body parser reads it as a bigint, which no JSON Schema type
 * accepts; this keyword (registered on the server's body validator) accepts a bigint of at most 78
 * digits, non-negative unless `signed`. Only amounts carry it, so a string field never takes a number.
 */
export const BIG_INTEGER_KEYWORD = 'x-big-integer';
const MAX_AMOUNT = 10n ** 78n;
export const bigIntegerKeyword = {
  keyword: BIG_INTEGER_KEYWORD,
  schemaType: 'string',
  validate: (mode: 'signed' | 'unsigned', data: unknown): boolean =>
    typeof data === 'bigint' && data < MAX_AMOUNT && (mode === 'signed' ? data > -MAX_AMOUNT : data >= 0n),
} as const;
const BigInteger = (mode: 'signed' | 'unsigned') =>
  Type.Unsafe<bigint>({ [BIG_INTEGER_KEYWORD]: mode, description: 'a JSON integer beyond 2^53, kept exact' });

/** Amounts in requests: a JSON integer (of any size, kept exact) or a string of digits. */
export const AmountInput = Type.Union([Type.String({ pattern: '^[0-9]{1,78}$' }), Type.Integer({ minimum: 0 }), BigInteger('unsigned')], {
  description: 'integer in minimum units: JSON integer or string of digits (at most 78)',
});
export type AmountInput = Static<typeof AmountInput>;
export const SignedAmountInput = Type.Union([Type.String({ pattern: '^-?[0-9]{1,78}$' }), Type.Integer(), BigInteger('signed')], {
  description: 'signed integer in minimum units: JSON integer or string of digits',
});

export const AssetSymbol = Type.String({ pattern: '^[A-Z0-9]{2,12}$', description: 'asset symbol, upper case' });
export const AssetDecimals = Type.Integer({ minimum: 0, maximum: 36 });
export const Id = Type.String({ minLength: 1, maxLength: 64 });
export const DateTime = Type.String({ format: 'date-time' });

export const Money = Type.Object({
  assetSymbol: Type.String(),
  assetDecimals: Type.Integer(),
  amountMinor: AmountString,
});
export type Money = Static<typeof Money>;

export const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  totalPages: Type.Integer(),
  asOf: Type.Optional(
    Type.String({
      description: "the walk's anchor, opaque: send it back as ?asOf= on the next pages to see the list as it was when page 1 was read",
    }),
  ),
});
export type Pagination = Static<typeof Pagination>;

/** `page` min 1 default 1; `limit` 1..100 default 10. Out of range is a 400, never clamped (docs/design/money-and-states.md). */
const pageFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  asOf: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{48}$',
      description: "opaque: pagination.asOf of the walk's first page: records created since are left out, so no row repeats or shifts",
    }),
  ),
};
/** The query of a list: the page fields and the list's own filters; any other parameter is a 400. */
export const ListQuery = <P extends TProperties>(filters: P) => Type.Object({ ...pageFields, ...filters }, { additionalProperties: false });
export const PageQuery = ListQuery({});
export type PageQuery = Static<typeof PageQuery>;

/** Filters by creation time on the client's lists: `createdFrom` inclusive, `createdTo` exclusive (RFC 3339 with a zone). */
export const CreatedRange = {
  createdFrom: Type.Optional(Type.String({ format: 'date-time', description: 'only records created at or after this instant' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time', description: 'only records created before this instant' })),
};

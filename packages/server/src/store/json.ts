/** JSON for jsonb columns: bigint becomes its digit string, never a number. */
export const toJson = (v: unknown): string => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));

import { showMoney } from '@cambio/web-kit/money';

/** One field of an audit entry's record, before and after, as a person reads it. */
/** Writes exact minor units in the asset's decimals (the page's language; English grouping by default). */
export type MoneyWriter = (minor: bigint, decimals: number) => string;

export interface ChangeRow {
  field: string;
  before: string;
  after: string;
  changed: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The asset a `…Minor` field of an audit record is counted in, from the record itself (its
 * `assetSymbol`, `baseSymbol`, `quoteSymbol`) or its subject (`BTC/USD` for a pair, `BTC` for a policy).
 */
function assetOf(field: string, rec: Obj, subjectType: string, subjectId: string): string | null {
  const str = (k: string) => (typeof rec[k] === 'string' ? (rec[k] as string) : null);
  const [pairBase, pairQuote] = subjectType === 'pair' ? subjectId.split('/') : [];
  if (/Quote/.test(field)) return str('quoteSymbol') ?? pairQuote ?? null;
  if (/Base/.test(field)) return str('baseSymbol') ?? pairBase ?? null;
  return str('assetSymbol') ?? (subjectType === 'asset' ? subjectId : null);
}

/**
 * Minor units shown in the asset's decimals with its symbol (never rounded); without the asset's
 * decimals, the digits and "minor units", so nothing is ever shown as a wrong amount.
 */
function value(
  field: string,
  v: unknown,
  rec: Obj,
  subjectType: string,
  subjectId: string,
  decimals: (s: string) => number | null,
  money: MoneyWriter,
): string {
  if (v === undefined) return '';
  if (v === null) return '—';
  // The SDK reads `…Minor` digit strings as bigint; an older record may still hold the text.
  const minor = typeof v === 'bigint' ? v : typeof v === 'string' && /^-?[0-9]+$/.test(v) ? BigInt(v) : null;
  if (field.endsWith('Minor') && minor !== null) {
    const asset = assetOf(field, rec, subjectType, subjectId);
    const d = asset ? decimals(asset) : null;
    return asset && d !== null ? `${money(minor, d)} ${asset}` : `${minor.toString()} minor units`;
  }
  if (field === 'approvals' && Array.isArray(v))
    return v.map((a) => (isObj(a) && typeof a.name === 'string' ? a.name : json(a))).join(', ') || '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return json(v);
}

const json = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? '';

/** Every field of before and after, in the order they first appear, with the changed ones marked. */
export function changeRows(
  before: unknown,
  after: unknown,
  subjectType: string,
  subjectId: string,
  decimals: (s: string) => number | null,
  money: MoneyWriter = showMoney,
): ChangeRow[] {
  const b = isObj(before) ? before : before === null || before === undefined ? {} : { value: before };
  const a = isObj(after) ? after : after === null || after === undefined ? {} : { value: after };
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields.map((f) => {
    const bv = value(f, b[f], b, subjectType, subjectId, decimals, money);
    const av = value(f, a[f], a, subjectType, subjectId, decimals, money);
    return { field: f, before: bv, after: av, changed: json(b[f]) !== json(a[f]) };
  });
}

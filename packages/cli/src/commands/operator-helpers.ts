import type { CambioOperator } from '@cambio/sdk';
import { UsageError } from '../config.ts';
import { amountArg } from '../context.ts';

/** The decimals the market reports for an asset (operator view). */
export async function marketDecimals(op: CambioOperator, symbol: string): Promise<number> {
  const a = (await op.market.assets()).find((x) => x.symbol === symbol);
  if (!a) throw new UsageError(`${symbol} is not listed at the market (see: cambio operator assets list)`);
  return a.decimals;
}

/** A decimal typed by a person, in minimum units of the asset, with the market's decimals. */
export async function operatorAmount(op: CambioOperator, symbol: string, text: string, signed = false): Promise<bigint> {
  return amountArg(text, await marketDecimals(op, symbol), { signed });
}

/** `--limits '{"BTC":{"maxOrderMinor":"100000000"}}'`, `'{}'` (no caps) or `null` (not loaded). Minor units. */
export function parseLimits(text: string): Record<string, { maxOrderMinor?: bigint | null; maxWithdrawalMinor?: bigint | null }> | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new UsageError('--limits must be JSON, e.g. \'{"BTC":{"maxOrderMinor":"100000000"}}\', \'{}\' or null');
  }
  if (v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw new UsageError('--limits must be a JSON object or null');
  const out: Record<string, { maxOrderMinor?: bigint | null; maxWithdrawalMinor?: bigint | null }> = {};
  for (const [asset, caps] of Object.entries(v as Record<string, Record<string, unknown>>)) {
    const c: { maxOrderMinor?: bigint | null; maxWithdrawalMinor?: bigint | null } = {};
    for (const k of ['maxOrderMinor', 'maxWithdrawalMinor'] as const) {
      const x = caps?.[k];
      if (x === undefined) continue;
      if (x === null) c[k] = null;
      else if ((typeof x === 'string' && /^[0-9]{1,78}$/.test(x)) || (typeof x === 'number' && Number.isSafeInteger(x) && x >= 0))
        c[k] = BigInt(x);
      else throw new UsageError(`--limits: ${asset}.${k} must be an integer of minimum units`);
    }
    out[asset.toUpperCase()] = c;
  }
  return out;
}

import { DomainError } from '../errors.ts';
import { toMinor } from '../money.ts';

export type OrgStatus = 'draft' | 'active' | 'suspended';
export interface AssetLimits {
  maxOrderMinor?: bigint;
  maxWithdrawalMinor?: bigint;
}
/** null: no limits loaded (cannot operate). `{}`: loaded, nothing capped. */
export type Limits = Record<string, AssetLimits> | null;

export interface Organization {
  id: string;
  name: string;
  status: OrgStatus;
  limits: Limits;
  /** Members must enrol TOTP before anything but signing in and enrolling (docs/design/people-and-apps.md). */
  requireTotp: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** docs/design/money-and-states.md: an organization operates only when active and with limits loaded. */
export const canOperate = (o: Pick<Organization, 'status' | 'limits'>) => o.status === 'active' && o.limits !== null;

/** Validates the wire form `{"BTC": {"maxOrderMinor": "…", "maxWithdrawalMinor": "…"}}`. */
export function parseLimits(input: unknown): Limits {
  if (input === null || input === undefined) return null;
  if (typeof input !== 'object' || Array.isArray(input))
    throw new DomainError('organizations.invalid_limits', { detail: 'limits must be an object' });
  const out: Record<string, AssetLimits> = {};
  for (const [asset, caps] of Object.entries(input as Record<string, unknown>)) {
    if (!/^[A-Z0-9]{2,12}$/.test(asset))
      throw new DomainError('organizations.invalid_limits', { detail: `bad asset symbol ${asset.slice(0, 20)}` });
    if (typeof caps !== 'object' || caps === null || Array.isArray(caps))
      throw new DomainError('organizations.invalid_limits', { detail: `${asset} must be an object` });
    const a: AssetLimits = {};
    for (const [k, v] of Object.entries(caps as Record<string, unknown>)) {
      if (k !== 'maxOrderMinor' && k !== 'maxWithdrawalMinor')
        throw new DomainError('organizations.invalid_limits', { detail: `unknown cap ${k.slice(0, 30)}` });
      if (v === null || v === undefined) continue;
      const m = toMinor(v);
      if (m === null) throw new DomainError('organizations.invalid_limits', { detail: `${asset}.${k} must be an amount` });
      a[k] = m;
    }
    out[asset] = a;
  }
  return out;
}

/** The limits with their amounts as digit strings: how they are stored (JSON) and shown. */
export function limitsAsStrings(l: Limits): Record<string, { maxOrderMinor?: string; maxWithdrawalMinor?: string }> | null {
  if (l === null) return null;
  return Object.fromEntries(
    Object.entries(l).map(([k, v]) => [
      k,
      {
        ...(v.maxOrderMinor !== undefined ? { maxOrderMinor: v.maxOrderMinor.toString() } : {}),
        ...(v.maxWithdrawalMinor !== undefined ? { maxWithdrawalMinor: v.maxWithdrawalMinor.toString() } : {}),
      },
    ]),
  );
}

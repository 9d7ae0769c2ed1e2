import { formatDecimal } from '../money.ts';

export type DeclarationState = 'open' | 'matched' | 'expired';

export interface Declaration {
  id: string;
  organizationId: string;
  reference: string;
  assetSymbol: string;
  assetDecimals: number;
  declaredAmount: bigint;
  expectedAmount: bigint;
  network: string | null;
  address: string | null;
  state: DeclarationState;
  expiresAt: Date;
  depositId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Whole seconds left, rounded up (a declaration open for 0.4 s more still says 1), never negative. */
export function expiresInSeconds(expiresAt: Date, now: Date): number {
  const ms = expiresAt.getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.trunc((ms + 999) / 1000);
}

/** The wire form (spec: Deposit declaration), with the seconds left computed at response time. */
export function declarationWire(d: Declaration, now: Date) {
  return {
    id: d.id, reference: d.reference, state: d.state, assetSymbol: d.assetSymbol, assetDecimals: d.assetDecimals,
    declaredAmountMinor: d.declaredAmount.toString(), expectedAmountMinor: d.expectedAmount.toString(),
    expectedAmount: formatDecimal(d.expectedAmount, d.assetDecimals),
    network: d.network, address: d.address,
    expiresAt: d.expiresAt.toISOString(), expiresInSeconds: expiresInSeconds(d.expiresAt, now),
  };
}

export type DeclarationState = 'open' | 'matched' | 'expired' | 'cancelled';

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

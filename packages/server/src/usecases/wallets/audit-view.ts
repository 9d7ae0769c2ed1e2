import type { DepositWallet } from '../../domain/deposits/wallet.ts';

/** What the audit trail shows of a wallet: where it receives; null when the asset has none. */
export const walletAudit = (w: DepositWallet | null) => (w ? { network: w.network, address: w.address } : null);

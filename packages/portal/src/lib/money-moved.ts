import type { QueryClient } from '@tanstack/react-query';

/**
 * After an act that holds money (an order placed, a withdrawal requested): the balances, the ledger (the
 * hold is an entry) and the act's own list are read again, pages not on screen included, before the act
 * is reported done, so the next page a person opens shows the hold at once, never the answer from
 * before (STYLE.md 14: invalidation after a mutation). A failed read shows on its page; it never turns
 * the act itself into an error.
 */
export async function refreshAfterHold(qc: QueryClient, list: 'orders' | 'withdrawals'): Promise<void> {
  await Promise.all(['balances', 'ledger', list].map((k) => qc.invalidateQueries({ queryKey: [k], refetchType: 'all' })));
}

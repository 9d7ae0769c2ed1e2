import { collect, type OperatorOrder, type OperatorWithdrawal } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { op } from '../../lib/api.ts';

export const queueKey = ['queue'] as const;

/**
 * Every order and withdrawal in a state, all pages (the lists are newest first; the queue shows the
 * oldest first, so the last page matters most). Refreshes by itself while something waits.
 */
export function useRequests(state: 'pending_approval' | 'approved', enabled = true) {
  return useQuery({
    queryKey: [...queueKey, state],
    enabled,
    refetchInterval: 5_000,
    queryFn: async (): Promise<{ orders: OperatorOrder[]; withdrawals: OperatorWithdrawal[] }> => {
      const [orders, withdrawals] = await Promise.all([
        collect(op.orders.iterate({ state, limit: 100 })),
        collect(op.withdrawals.iterate({ state, limit: 100 })),
      ]);
      return { orders, withdrawals };
    },
  });
}

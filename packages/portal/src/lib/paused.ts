import { useQuery } from '@tanstack/react-query';
import { usePortal } from './portal-context.ts';

/**
 * Whether the platform has paused what moves money or commits it (orders, withdrawals, deposit
 * declarations, new destinations) while its books are checked (docs/api-guide.md, "The portal"): the
 * forms disable those acts and say why; quotes and reads go on. One query with the shell's banner.
 */
export function usePaused(): boolean {
  const { sdk } = usePortal();
  const q = useQuery({ queryKey: ['platform'], queryFn: () => sdk.session.platform(), refetchInterval: 30_000 });
  return q.data?.reconciled === false;
}

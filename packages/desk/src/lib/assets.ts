import { useQuery } from '@tanstack/react-query';
import { op } from './api.ts';

/** The market's assets and their decimals: the only source of decimals for amounts typed here. */
export function useAssets() {
  return useQuery({ queryKey: ['market', 'assets'], queryFn: () => op.market.assets(), staleTime: 30_000 });
}

export function decimalsOf(assets: Array<{ symbol: string; decimals: number }> | undefined, symbol: string): number | null {
  return assets?.find((a) => a.symbol === symbol)?.decimals ?? null;
}

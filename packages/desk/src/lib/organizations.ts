import { useQueries } from '@tanstack/react-query';
import { op } from './api.ts';

/** The names of the organizations a list refers to by id, each read once and cached. */
export function useOrganizationNames(ids: Array<string | null | undefined>): Map<string, string> {
  const unique = [...new Set(ids.filter((x): x is string => typeof x === 'string' && x !== ''))];
  const results = useQueries({
    queries: unique.map((id) => ({ queryKey: ['organization', id], queryFn: () => op.organizations.get(id), staleTime: 60_000 })),
  });
  const names = new Map<string, string>();
  unique.forEach((id, i) => {
    const d = results[i]?.data;
    if (d) names.set(id, d.name);
  });
  return names;
}

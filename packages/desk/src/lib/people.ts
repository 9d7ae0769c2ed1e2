import { useQuery } from '@tanstack/react-query';
import { op } from './api.ts';

/** The operator's staff by actor (`staff:<id>`), read once and cached, so a record says who by name. */
export function useStaffByActor(): Map<string, { name: string; email: string }> {
  const q = useQuery({ queryKey: ['staff', 'names'], queryFn: () => op.staff.list(), staleTime: 60_000 });
  return new Map((q.data ?? []).map((s) => [`staff:${s.id}`, { name: s.name, email: s.email }]));
}

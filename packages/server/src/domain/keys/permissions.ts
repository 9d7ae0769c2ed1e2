import type { Permission, Scope } from '@cambio/contract';
import { PERMISSIONS, SCOPES } from '@cambio/contract';

/** Effective permissions = key scopes ∩ the issuing member's role, read on every request (spec: Authentication §4). */
export function effectivePermissions(keyScopes: readonly string[], role: readonly string[]): Scope[] {
  const r = new Set(role);
  return SCOPES.filter((s) => keyScopes.includes(s) && r.has(s));
}

export function isPermission(p: string): p is Permission {
  return (PERMISSIONS as readonly string[]).includes(p);
}

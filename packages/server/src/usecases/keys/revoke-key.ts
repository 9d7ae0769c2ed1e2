import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';

/**
 * Revokes a key; with `organizationId` (a member in the portal), only a key of that organization (another
 * organization's is not found). Revoking a revoked key answers its first revocation and writes nothing.
 * The key stops at once: the change to api_keys is notified to the auth cache (store/auth-changes.ts).
 */
export async function revokeKey(
  d: Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>,
  actor: string,
  id: string,
  organizationId?: string,
): Promise<{ id: string; revokedAt: Date }> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const cur = await d.store.keys.lock(tx, id);
    if (!cur || (organizationId !== undefined && cur.organizationId !== organizationId)) throw new DomainError('keys.not_found');
    if (cur.revokedAt) return { id, revokedAt: cur.revokedAt };
    await d.store.keys.markRevoked(tx, id, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'api_key.revoke',
      subjectType: 'api_key',
      subjectId: id,
      before: { revokedAt: null },
      after: { revokedAt: at },
    });
    return { id, revokedAt: at };
  });
}

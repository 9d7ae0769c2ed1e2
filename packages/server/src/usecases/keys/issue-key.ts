import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { IssuedKey } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/** The key to issue: `secretHash` is the keyed hash of its secret; the secret itself is never stored nor audited. */
export interface KeyToIssue {
  memberId: string;
  prefix: string;
  secretHash: string;
  scopes: string[];
  expiresAt: Date | null;
  allowedIps: string[] | null;
  name?: string | null;
}

/**
 * A key for a member who may hold keys (portal:api_keys), whoever issues it (the member in the portal, or
 * the operator). Its scopes are no wider than the member's role: a wider key would gain the rest the day
 * the role grows. An expiry must be in the future.
 */
export async function issueKey(d: Deps, actor: string, r: KeyToIssue): Promise<IssuedKey> {
  const at = d.clock.now();
  const id = d.ids.next('key');
  return d.store.uow.run(async (tx) => {
    const m = await d.store.members.roleIn(tx, r.memberId);
    if (!m) throw new DomainError('members.not_found');
    if (!m.permissions.includes('portal:api_keys')) throw new DomainError('keys.issuer_lacks_permission');
    const wider = r.scopes.find((sc) => !m.permissions.includes(sc));
    if (wider) throw new DomainError('keys.scope_too_wide', { scope: wider });
    if (r.expiresAt && r.expiresAt.getTime() <= at.getTime()) throw new DomainError('keys.expiry_in_past');
    await d.store.keys.insert(tx, id, at, { ...r, organizationId: m.organizationId });
    const issued: IssuedKey = {
      id,
      prefix: r.prefix,
      scopes: r.scopes,
      organizationId: m.organizationId,
      memberId: r.memberId,
      expiresAt: r.expiresAt,
      allowedIps: r.allowedIps,
      createdAt: at,
    };
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'api_key.issue',
      subjectType: 'api_key',
      subjectId: id,
      before: null,
      after: { ...issued },
    });
    return issued;
  });
}

import { DomainError } from '../../domain/errors.ts';
import type { StaffDeps } from './staff-deps.ts';
import type { StaffToken } from '../repositories.ts';

/** A personal token (`ops_<prefix>.<secret>`) for the person, acting as themselves; only the secret's hash is kept. */
export async function issueStaffToken(
  d: StaffDeps,
  actor: string,
  staffId: string,
  r: { name: string; prefix: string; secretHash: string },
): Promise<StaffToken> {
  const at = d.clock.now();
  const id = d.ids.next('otk');
  return d.store.uow.run(async (tx) => {
    const t = await d.store.staff.insertToken(tx, { id, staffId, ...r, at });
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'staff_token.issue',
      subjectType: 'staff_token',
      subjectId: id,
      before: null,
      after: { staffId, name: r.name, prefix: r.prefix },
    });
    return t;
  });
}

/** Revokes one of the person's own tokens (another person's is not found); revoking it again changes nothing. */
export async function revokeStaffToken(d: StaffDeps, actor: string, staffId: string, tokenId: string): Promise<StaffToken> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const cur = await d.store.staff.lockToken(tx, staffId, tokenId);
    if (!cur) throw new DomainError('staff.token_not_found');
    if (cur.revokedAt) return cur;
    await d.store.staff.revokeToken(tx, tokenId, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'staff_token.revoke',
      subjectType: 'staff_token',
      subjectId: tokenId,
      before: { revokedAt: null },
      after: { revokedAt: at },
    });
    return { ...cur, revokedAt: at };
  });
}

/** Notes a token's use (the authentication does it at most once a minute). */
export async function touchStaffToken(d: Pick<StaffDeps, 'store' | 'clock'>, tokenId: string): Promise<void> {
  await d.store.uow.run((tx) => d.store.staff.touchToken(tx, tokenId, d.clock.now()));
}

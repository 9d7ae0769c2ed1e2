import { DomainError } from '../domain/errors.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import { recordAudit } from './audit-store.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import { toMember, type Member } from './organizations-store.ts';

export interface TeamMember extends Member { totpEnrolled: boolean }
export interface OrgKey {
  id: string; prefix: string; scopes: string[]; issuedBy: { id: string; name: string }; createdAt: Date; lastUsedAt: Date | null;
  expiresAt: Date | null; allowedIps: string[] | null; revokedAt: Date | null;
}

/** What members do to their own organization in the portal: the team and its keys (CONTRACT §7). */
export class MembersStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  async team(organizationId: string): Promise<TeamMember[]> {
    const rows = await this.db.selectFrom('members as m')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'm.id').on('c.subject_type', '=', 'member'))
      .select(['m.id', 'm.organization_id', 'm.name', 'm.email', 'm.permissions', 'm.status', 'm.created_at', 'm.updated_at', 'c.totp_secret_sealed'])
      .where('m.organization_id', '=', organizationId).orderBy('m.created_at', 'desc').orderBy('m.id').execute();
    return rows.map((r) => ({ ...toMember(r), totpEnrolled: r.totp_secret_sealed !== null }));
  }

  async member(organizationId: string, id: string): Promise<TeamMember | null> {
    return (await this.team(organizationId)).find((m) => m.id === id) ?? null;
  }

  /** A member of this organization (another organization's is not found), not removed, gets a new role. */
  async setPermissions(actor: string, organizationId: string, id: string, permissions: string[]): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction().execute(async (tx) => {
      const cur = await tx.selectFrom('members').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).forUpdate().executeTakeFirst();
      if (!cur) throw new DomainError('members.not_found');
      if (cur.status === 'removed') throw new DomainError('members.removed');
      await tx.updateTable('members').set({ permissions: toJson(permissions), updated_at: at }).where('id', '=', id).execute();
      await recordAudit(tx, this.ids, at, { actor, action: 'member.permissions', subjectType: 'member', subjectId: id, before: { permissions: cur.permissions }, after: { permissions } });
    });
  }

  /** Removal: the member's sessions end and keys are revoked in the same transaction (they stop at once). */
  async remove(actor: string, organizationId: string, id: string): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction().execute(async (tx) => {
      const cur = await tx.selectFrom('members').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).forUpdate().executeTakeFirst();
      if (!cur) throw new DomainError('members.not_found');
      if (cur.status === 'removed') throw new DomainError('members.removed');
      await tx.updateTable('members').set({ status: 'removed', updated_at: at }).where('id', '=', id).execute();
      await tx.updateTable('sessions').set({ ended_at: at }).where('kind', '=', 'member').where('subject_id', '=', id).where('ended_at', 'is', null).execute();
      const keys = await tx.updateTable('api_keys').set({ revoked_at: at }).where('member_id', '=', id).where('revoked_at', 'is', null).returning('id').execute();
      await tx.updateTable('invitations').set({ used_at: at }).where('subject_type', '=', 'member').where('subject_id', '=', id).where('used_at', 'is', null).execute();
      await recordAudit(tx, this.ids, at, { actor, action: 'member.remove', subjectType: 'member', subjectId: id, before: { status: cur.status }, after: { status: 'removed', keysRevoked: keys.map((k) => k.id) } });
    });
  }

  /**
   * A fresh invitation for a member still invited: every earlier unused link of theirs is spent in the same
   * transaction, so only the newest one signs them in.
   */
  async reinvite(actor: string, organizationId: string, id: string, invitation: { tokenHash: string; expiresAt: Date }): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction().execute(async (tx) => {
      const cur = await tx.selectFrom('members').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).forUpdate().executeTakeFirst();
      if (!cur) throw new DomainError('members.not_found');
      if (cur.status !== 'invited') throw new DomainError('members.not_invited');
      await tx.updateTable('invitations').set({ used_at: at }).where('subject_type', '=', 'member').where('subject_id', '=', id).where('used_at', 'is', null).execute();
      await tx.insertInto('invitations').values({ token_hash: invitation.tokenHash, subject_type: 'member', subject_id: id, expires_at: invitation.expiresAt, used_at: null, created_at: at }).execute();
      await recordAudit(tx, this.ids, at, { actor, action: 'member.reinvite', subjectType: 'member', subjectId: id, before: null, after: { invitationExpiresAt: invitation.expiresAt } });
    });
  }

  async keys(organizationId: string): Promise<OrgKey[]> {
    const rows = await this.db.selectFrom('api_keys as k').innerJoin('members as m', 'm.id', 'k.member_id')
      .select(['k.id', 'k.prefix', 'k.scopes', 'k.created_at', 'k.last_used_at', 'k.expires_at', 'k.allowed_ips', 'k.revoked_at', 'm.id as member_id', 'm.name as member_name'])
      .where('k.organization_id', '=', organizationId).orderBy('k.created_at', 'desc').orderBy('k.id').execute();
    return rows.map((r) => ({
      id: r.id, prefix: r.prefix, scopes: r.scopes, issuedBy: { id: r.member_id, name: r.member_name }, createdAt: r.created_at,
      lastUsedAt: r.last_used_at, expiresAt: r.expires_at, allowedIps: r.allowed_ips, revokedAt: r.revoked_at,
    }));
  }

  async keyOrganization(keyId: string): Promise<string | null> {
    const r = await this.db.selectFrom('api_keys').select('organization_id').where('id', '=', keyId).executeTakeFirst();
    return r?.organization_id ?? null;
  }
}

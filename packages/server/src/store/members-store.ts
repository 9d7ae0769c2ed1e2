import { sql } from 'kysely';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import { toMember, type Member } from './organizations-store.ts';
import type { Tx } from './unit-of-work.ts';
import type { InvitationsSent, NewMember, MembersRepository } from '../usecases/repositories.ts';

export type { NewMember };

export interface TeamMember extends Member {
  totpEnrolled: boolean;
}
export interface OrgKey {
  id: string;
  prefix: string;
  scopes: string[];
  issuedBy: { id: string; name: string };
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  allowedIps: string[] | null;
  revokedAt: Date | null;
  name: string | null;
}

/**
 * An organization's members and the keys they hold, as the portal and the desk read them (docs/design/people-and-apps.md),
 * and the members' rows the use cases write in their transaction (usecases/members). Nothing here decides or audits.
 */
export class MembersStore implements MembersRepository {
  constructor(private readonly db: Db) {}

  async team(organizationId: string): Promise<TeamMember[]> {
    const rows = await this.db
      .selectFrom('members as m')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'm.id').on('c.subject_type', '=', 'member'))
      .select([
        'm.id',
        'm.organization_id',
        'm.name',
        'm.email',
        'm.permissions',
        'm.status',
        'm.created_at',
        'm.updated_at',
        'c.totp_secret_sealed',
      ])
      .where('m.organization_id', '=', organizationId)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id')
      .execute();
    return rows.map((r) => ({ ...toMember(r), totpEnrolled: r.totp_secret_sealed !== null }));
  }

  async member(organizationId: string, id: string): Promise<TeamMember | null> {
    return (await this.team(organizationId)).find((m) => m.id === id) ?? null;
  }

  /** Whether a member of the organization who is not removed already has this email, as `tx` sees it. */
  async emailInUse(tx: Tx, organizationId: string, email: string): Promise<boolean> {
    const dup = await tx
      .selectFrom('members')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('email', '=', email)
      .where('status', '<>', 'removed')
      .executeTakeFirst();
    return dup !== undefined;
  }

  /** A new member, `invited` (the column's default). */
  async insert(tx: Tx, id: string, at: Date, organizationId: string, r: NewMember): Promise<Member> {
    const row = await tx
      .insertInto('members')
      .values({
        id,
        organization_id: organizationId,
        name: r.name,
        email: r.email,
        permissions: toJson(r.permissions),
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toMember(row);
  }

  /** Only the hash of the invitation's token is stored; the token itself is shown once, by the caller. */
  async addInvitation(
    tx: Tx,
    memberId: string,
    at: Date,
    invitation: { tokenHash: string; expiresAt: Date },
    sent?: { by: string; email: string },
  ): Promise<void> {
    await tx
      .insertInto('invitations')
      .values({
        token_hash: invitation.tokenHash,
        subject_type: 'member',
        subject_id: memberId,
        expires_at: invitation.expiresAt,
        used_at: null,
        created_at: at,
        invited_by: sent?.by ?? null,
        email: sent?.email ?? null,
      })
      .execute();
  }

  /** Transaction-scoped advisory locks, the sender's first then the address's: always in that order, so never a deadlock. */
  async lockInvitationCounts(tx: Tx, by: string, email: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`invitations by ${by}`}, 0))`.execute(tx);
    await sql`select pg_advisory_xact_lock(hashtextextended(${`invitations to ${email}`}, 0))`.execute(tx);
  }

  async invitationsSince(tx: Tx, who: { by: string } | { email: string }, since: Date): Promise<InvitationsSent> {
    let q = tx
      .selectFrom('invitations')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('subject_type', '=', 'member')
      .where('created_at', '>', since);
    q = 'by' in who ? q.where('invited_by', '=', who.by) : q.where('email', '=', who.email);
    const r = await q.executeTakeFirstOrThrow();
    return { count: Number(r.n), oldest: r.oldest === null ? null : new Date(r.oldest as unknown as string | Date) };
  }

  /** Every unused invitation of the member is spent: none of those links signs in any more. */
  async spendInvitations(tx: Tx, memberId: string, at: Date): Promise<void> {
    await tx
      .updateTable('invitations')
      .set({ used_at: at })
      .where('subject_type', '=', 'member')
      .where('subject_id', '=', memberId)
      .where('used_at', 'is', null)
      .execute();
  }

  /**
   * The member, locked until `tx` ends; with `organizationId`, only a member of that organization (another
   * organization's is null, like a missing one).
   */
  async lock(tx: Tx, id: string, organizationId?: string): Promise<Member | null> {
    let q = tx.selectFrom('members').selectAll().where('id', '=', id);
    if (organizationId !== undefined) q = q.where('organization_id', '=', organizationId);
    const r = await q.forUpdate().executeTakeFirst();
    return r ? toMember(r) : null;
  }

  /** The member's organization and role as `tx` sees them (not locked); null when there is no such member. */
  async roleIn(tx: Tx, id: string): Promise<{ organizationId: string; permissions: string[] } | null> {
    const m = await tx.selectFrom('members').select(['organization_id', 'permissions']).where('id', '=', id).executeTakeFirst();
    return m ? { organizationId: m.organization_id, permissions: m.permissions } : null;
  }

  async setPermissions(tx: Tx, id: string, at: Date, permissions: string[]): Promise<Member> {
    const row = await tx
      .updateTable('members')
      .set({ permissions: toJson(permissions), updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toMember(row);
  }

  async markRemoved(tx: Tx, id: string, at: Date): Promise<void> {
    await tx.updateTable('members').set({ status: 'removed', updated_at: at }).where('id', '=', id).execute();
  }

  /** Every open session of the member ends now. */
  async endSessions(tx: Tx, id: string, at: Date): Promise<void> {
    await tx
      .updateTable('sessions')
      .set({ ended_at: at })
      .where('kind', '=', 'member')
      .where('subject_id', '=', id)
      .where('ended_at', 'is', null)
      .execute();
  }

  async keys(organizationId: string): Promise<OrgKey[]> {
    const rows = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('members as m', 'm.id', 'k.member_id')
      .select([
        'k.id',
        'k.prefix',
        'k.scopes',
        'k.created_at',
        'k.last_used_at',
        'k.expires_at',
        'k.allowed_ips',
        'k.revoked_at',
        'k.name',
        'm.id as member_id',
        'm.name as member_name',
      ])
      .where('k.organization_id', '=', organizationId)
      .orderBy('k.created_at', 'desc')
      .orderBy('k.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      prefix: r.prefix,
      scopes: r.scopes,
      issuedBy: { id: r.member_id, name: r.member_name },
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
      expiresAt: r.expires_at,
      allowedIps: r.allowed_ips,
      revokedAt: r.revoked_at,
      name: r.name,
    }));
  }
}

import type { Clock, Ids } from '../domain/ports.ts';
import { DomainError } from '../domain/errors.ts';
import { limitsAsStrings, type Limits, type Organization, type OrgStatus } from '../domain/organizations/organization.ts';
import { recordAudit } from './audit-store.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';

export interface Member { id: string; organizationId: string; name: string; email: string; permissions: string[]; status: 'invited' | 'active' | 'removed'; createdAt: Date; updatedAt: Date }

function parseStoredLimits(raw: unknown): Limits {
  if (raw === null || raw === undefined) return null;
  const out: NonNullable<Limits> = {};
  for (const [k, v] of Object.entries(raw as Record<string, Record<string, string>>)) {
    out[k] = {
      ...(v.maxOrderMinor !== undefined ? { maxOrderMinor: BigInt(v.maxOrderMinor) } : {}),
      ...(v.maxWithdrawalMinor !== undefined ? { maxWithdrawalMinor: BigInt(v.maxWithdrawalMinor) } : {}),
    };
  }
  return out;
}

type OrgRow = { id: string; name: string; status: string; limits: unknown; require_totp?: boolean; created_at: Date; updated_at: Date };
export const toOrganization = (r: OrgRow): Organization => ({
  id: r.id, name: r.name, status: r.status as OrgStatus, limits: parseStoredLimits(r.limits), requireTotp: r.require_totp ?? false, createdAt: r.created_at, updatedAt: r.updated_at,
});

export const toMember = (r: { id: string; organization_id: string; name: string; email: string; permissions: string[]; status: string; created_at: Date; updated_at: Date }): Member => ({
  id: r.id, organizationId: r.organization_id, name: r.name, email: r.email, permissions: r.permissions, status: r.status as Member['status'], createdAt: r.created_at, updatedAt: r.updated_at,
});

const auditOrg = (o: Organization) => ({ name: o.name, status: o.status, limits: limitsAsStrings(o.limits), requireTotp: o.requireTotp });

export class OrganizationsStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  async create(actor: string, r: { name: string; status: OrgStatus; limits: Limits }): Promise<Organization> {
    const at = this.clock.now();
    const id = this.ids.next('org');
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.insertInto('organizations').values({
        id, name: r.name, status: r.status, limits: r.limits === null ? null : toJson(limitsAsStrings(r.limits)), created_at: at, updated_at: at,
      }).returningAll().executeTakeFirstOrThrow();
      const org = toOrganization(row);
      await recordAudit(tx, this.ids, at, { actor, action: 'organization.create', subjectType: 'organization', subjectId: id, before: null, after: auditOrg(org) });
      return org;
    });
  }

  /** The first organization created with this name (names are not unique). */
  async firstNamed(name: string): Promise<Organization | null> {
    const r = await this.db.selectFrom('organizations').selectAll().where('name', '=', name).orderBy('created_at').orderBy('id').executeTakeFirst();
    return r ? toOrganization(r) : null;
  }

  async get(id: string): Promise<Organization | null> {
    const r = await this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toOrganization(r) : null;
  }

  async update(actor: string, id: string, patch: { status?: OrgStatus; limits?: Limits; requireTotp?: boolean }): Promise<Organization> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const cur = await tx.selectFrom('organizations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!cur) throw new DomainError('organizations.not_found');
      const before = toOrganization(cur);
      const row = await tx.updateTable('organizations').set({
        ...(patch.status !== undefined ? { status: patch.status } : {}),
        ...(patch.limits !== undefined ? { limits: patch.limits === null ? null : toJson(limitsAsStrings(patch.limits)) } : {}),
        ...(patch.requireTotp !== undefined ? { require_totp: patch.requireTotp } : {}),
        updated_at: at,
      }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      const after = toOrganization(row);
      await recordAudit(tx, this.ids, at, { actor, action: 'organization.update', subjectType: 'organization', subjectId: id, before: auditOrg(before), after: auditOrg(after) });
      return after;
    });
  }

  /** A new member, `invited`, with the invitation's hash in the same transaction (the token is shown once by the caller). */
  async addMember(actor: string, organizationId: string, r: { name: string; email: string; permissions: string[] }, invitation?: { tokenHash: string; expiresAt: Date }): Promise<Member> {
    const at = this.clock.now();
    const id = this.ids.next('mem');
    return this.db.transaction().execute(async (tx) => {
      const org = await tx.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst();
      if (!org) throw new DomainError('organizations.not_found');
      const dup = await tx.selectFrom('members').select('id').where('organization_id', '=', organizationId).where('email', '=', r.email).where('status', '<>', 'removed').executeTakeFirst();
      if (dup) throw new DomainError('members.email_taken');
      const row = await tx.insertInto('members').values({
        id, organization_id: organizationId, name: r.name, email: r.email, permissions: toJson(r.permissions), created_at: at, updated_at: at,
      }).returningAll().executeTakeFirstOrThrow();
      if (invitation) {
        await tx.insertInto('invitations').values({ token_hash: invitation.tokenHash, subject_type: 'member', subject_id: id, expires_at: invitation.expiresAt, used_at: null, created_at: at }).execute();
      }
      await recordAudit(tx, this.ids, at, { actor, action: 'member.create', subjectType: 'member', subjectId: id, before: null, after: { organizationId, name: r.name, email: r.email, permissions: r.permissions, ...(invitation ? { invitationExpiresAt: invitation.expiresAt } : {}) } });
      return toMember(row);
    });
  }

  async getMember(id: string): Promise<Member | null> {
    const r = await this.db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toMember(r) : null;
  }

  async setMemberPermissions(actor: string, id: string, permissions: string[]): Promise<Member> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const cur = await tx.selectFrom('members').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!cur) throw new DomainError('members.not_found');
      const row = await tx.updateTable('members').set({ permissions: toJson(permissions), updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      await recordAudit(tx, this.ids, at, { actor, action: 'member.permissions', subjectType: 'member', subjectId: id, before: { permissions: cur.permissions }, after: { permissions } });
      return toMember(row);
    });
  }
}

import { limitsAsStrings, type Limits, type Organization, type OrgStatus } from '../domain/organizations/organization.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import type { Tx } from './unit-of-work.ts';
import type { Member, OrganizationsRepository } from '../usecases/repositories.ts';

export type { Member };

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
  id: r.id,
  name: r.name,
  status: r.status as OrgStatus,
  limits: parseStoredLimits(r.limits),
  requireTotp: r.require_totp ?? false,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toMember = (r: {
  id: string;
  organization_id: string;
  name: string;
  email: string;
  permissions: string[];
  status: string;
  created_at: Date;
  updated_at: Date;
}): Member => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  email: r.email,
  permissions: r.permissions,
  status: r.status as Member['status'],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * Organizations' rows: reads, and the writes a use case makes in its transaction (usecases/organizations).
 * Nothing here decides or audits.
 */
export class OrganizationsStore implements OrganizationsRepository {
  constructor(private readonly db: Db) {}

  async insert(tx: Tx, id: string, at: Date, r: { name: string; status: OrgStatus; limits: Limits }): Promise<Organization> {
    const row = await tx
      .insertInto('organizations')
      .values({
        id,
        name: r.name,
        status: r.status,
        limits: r.limits === null ? null : toJson(limitsAsStrings(r.limits)),
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toOrganization(row);
  }

  /** The first organization created with this name (names are not unique). */
  async firstNamed(name: string): Promise<Organization | null> {
    const r = await this.db
      .selectFrom('organizations')
      .selectAll()
      .where('name', '=', name)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    return r ? toOrganization(r) : null;
  }

  async get(id: string): Promise<Organization | null> {
    const r = await this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toOrganization(r) : null;
  }

  /** Whether the organization exists, as `tx` sees it (not locked: a member added to it does not change it). */
  async existsIn(tx: Tx, id: string): Promise<boolean> {
    return (await tx.selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** The organization, locked until `tx` ends (a change reads what it changes); null when there is none. */
  async lock(tx: Tx, id: string): Promise<Organization | null> {
    const r = await tx.selectFrom('organizations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return r ? toOrganization(r) : null;
  }

  /** Writes the fields present in `patch`; the row as it is after. */
  async patch(tx: Tx, id: string, at: Date, patch: { status?: OrgStatus; limits?: Limits; requireTotp?: boolean }): Promise<Organization> {
    const row = await tx
      .updateTable('organizations')
      .set({
        ...(patch.status !== undefined ? { status: patch.status } : {}),
        ...(patch.limits !== undefined ? { limits: patch.limits === null ? null : toJson(limitsAsStrings(patch.limits)) } : {}),
        ...(patch.requireTotp !== undefined ? { require_totp: patch.requireTotp } : {}),
        updated_at: at,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toOrganization(row);
  }

  async getMember(id: string): Promise<Member | null> {
    const r = await this.db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toMember(r) : null;
  }
}

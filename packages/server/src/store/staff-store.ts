import type { Db } from './db.ts';
import type { Tx } from './unit-of-work.ts';
import type { StaffRole, Staff, StaffToken, StaffRepository } from '../usecases/repositories.ts';

export type { StaffRole, Staff, StaffToken };

export const toStaff = (r: {
  id: string;
  name: string;
  email: string;
  role: string;
  status: string;
  created_at: Date;
  updated_at: Date;
}): Staff => ({
  id: r.id,
  name: r.name,
  email: r.email,
  role: r.role as StaffRole,
  status: r.status as Staff['status'],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

type TokenRow = { id: string; name: string; prefix: string; created_at: Date; last_used_at: Date | null; revoked_at: Date | null };
const toToken = (r: TokenRow): StaffToken => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/**
 * The operator's people (docs/design/people-and-apps.md) and their personal tokens. Writes go through the use case's
 * transaction (usecases/staff), which decides and audits.
 */
export class StaffStore implements StaffRepository {
  // `ids` and `clock` stay in the signature the store is built with; the use cases make ids and times now.
  constructor(private readonly db: Db) {}

  async list(): Promise<Staff[]> {
    return (await this.db.selectFrom('staff').selectAll().orderBy('seq', 'desc').execute()).map(toStaff);
  }

  async get(id: string): Promise<Staff | null> {
    const r = await this.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toStaff(r) : null;
  }

  async emailTaken(tx: Tx, email: string): Promise<boolean> {
    return (await tx.selectFrom('staff').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
  }

  async insert(
    tx: Tx,
    r: { id: string; name: string; email: string; role: StaffRole; status: 'invited' | 'active'; at: Date },
  ): Promise<Staff> {
    const row = await tx
      .insertInto('staff')
      .values({ id: r.id, name: r.name, email: r.email, role: r.role, status: r.status, created_at: r.at, updated_at: r.at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toStaff(row);
  }

  /** Locks every admin row, in one order (so concurrent role changes queue behind each other, never deadlock). */
  async lockAdmins(tx: Tx): Promise<void> {
    await tx.selectFrom('staff').select('id').where('role', '=', 'admin').orderBy('id').forUpdate().execute();
  }

  /** The person, locked for a change; null when unknown. */
  async lock(tx: Tx, id: string): Promise<Staff | null> {
    const r = await tx.selectFrom('staff').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return r ? toStaff(r) : null;
  }

  async activeAdminCount(tx: Tx): Promise<number> {
    return (await tx.selectFrom('staff').select('id').where('role', '=', 'admin').where('status', '=', 'active').execute()).length;
  }

  async update(tx: Tx, id: string, set: { role?: StaffRole; status?: 'removed' }, at: Date): Promise<Staff> {
    return toStaff(
      await tx
        .updateTable('staff')
        .set({ ...set, updated_at: at })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }

  // personal tokens

  async insertToken(
    tx: Tx,
    t: { id: string; staffId: string; name: string; prefix: string; secretHash: string; at: Date },
  ): Promise<StaffToken> {
    await tx
      .insertInto('staff_tokens')
      .values({
        id: t.id,
        staff_id: t.staffId,
        name: t.name,
        prefix: t.prefix,
        secret_hash: t.secretHash,
        created_at: t.at,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    return { id: t.id, name: t.name, prefix: t.prefix, createdAt: t.at, lastUsedAt: null, revokedAt: null };
  }

  async tokens(staffId: string): Promise<StaffToken[]> {
    const rows = await this.db
      .selectFrom('staff_tokens')
      .select(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'])
      .where('staff_id', '=', staffId)
      .orderBy('seq', 'desc')
      .execute();
    return rows.map(toToken);
  }

  /** One of the person's own tokens, locked; null when it is unknown or another person's. */
  async lockToken(tx: Tx, staffId: string, tokenId: string): Promise<StaffToken | null> {
    const r = await tx
      .selectFrom('staff_tokens')
      .selectAll()
      .where('id', '=', tokenId)
      .where('staff_id', '=', staffId)
      .forUpdate()
      .executeTakeFirst();
    return r ? toToken(r) : null;
  }

  async revokeToken(tx: Tx, tokenId: string, at: Date): Promise<void> {
    await tx.updateTable('staff_tokens').set({ revoked_at: at }).where('id', '=', tokenId).execute();
  }

  /** Every token of the person not yet revoked stops now. */
  async revokeTokensOf(tx: Tx, staffId: string, at: Date): Promise<void> {
    await tx.updateTable('staff_tokens').set({ revoked_at: at }).where('staff_id', '=', staffId).where('revoked_at', 'is', null).execute();
  }

  /** What authenticating a token needs: the token, its person (active or not) and whether TOTP is enrolled. */
  async forToken(prefix: string) {
    const r = await this.db
      .selectFrom('staff_tokens as t')
      .innerJoin('staff as p', 'p.id', 't.staff_id')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'p.id').on('c.subject_type', '=', 'staff'))
      .select([
        't.id as token_id',
        't.secret_hash',
        't.revoked_at',
        't.last_used_at',
        'p.id',
        'p.name',
        'p.email',
        'p.role',
        'p.status',
        'p.created_at',
        'p.updated_at',
        'c.totp_secret_sealed',
      ])
      .where('t.prefix', '=', prefix)
      .executeTakeFirst();
    if (!r) return null;
    return {
      tokenId: r.token_id,
      secretHash: r.secret_hash,
      revoked: r.revoked_at !== null,
      lastUsedAt: r.last_used_at,
      staff: toStaff(r),
      totpEnrolled: r.totp_secret_sealed !== null,
    };
  }

  async touchToken(tx: Tx, tokenId: string, at: Date): Promise<void> {
    await tx.updateTable('staff_tokens').set({ last_used_at: at }).where('id', '=', tokenId).execute();
  }
}

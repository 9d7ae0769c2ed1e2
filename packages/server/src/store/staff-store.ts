import { DomainError } from '../domain/errors.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import { recordAudit } from './audit-store.ts';
import type { Db } from './db.ts';

export type StaffRole = 'viewer' | 'approver' | 'admin';
export interface Staff { id: string; name: string; email: string; role: StaffRole; status: 'invited' | 'active' | 'removed'; createdAt: Date; updatedAt: Date }

export const toStaff = (r: { id: string; name: string; email: string; role: string; status: string; created_at: Date; updated_at: Date }): Staff => ({
  id: r.id, name: r.name, email: r.email, role: r.role as StaffRole, status: r.status as Staff['status'], createdAt: r.created_at, updatedAt: r.updated_at,
});

export interface StaffToken { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }

const view = (s: Staff) => ({ name: s.name, email: s.email, role: s.role, status: s.status });

/** The operator's people (CONTRACT §7) and their personal tokens. */
export class StaffStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  async list(): Promise<Staff[]> {
    return (await this.db.selectFrom('staff').selectAll().orderBy('seq', 'desc').execute()).map(toStaff);
  }

  async get(id: string): Promise<Staff | null> {
    const r = await this.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toStaff(r) : null;
  }

  /** A new person, invited (the invitation's hash stored with it), or active with a password (the sandbox's first admin). */
  async create(actor: string, r: { name: string; email: string; role: StaffRole }, start: { invitation: { tokenHash: string; expiresAt: Date } } | { passwordHash: string }): Promise<Staff> {
    const at = this.clock.now();
    const id = this.ids.next('stf');
    return this.db.transaction().execute(async (tx) => {
      const dup = await tx.selectFrom('staff').select('id').where('email', '=', r.email).executeTakeFirst();
      if (dup) throw new DomainError('staff.email_taken');
      const status = 'passwordHash' in start ? 'active' : 'invited';
      const row = await tx.insertInto('staff').values({ id, name: r.name, email: r.email, role: r.role, status, created_at: at, updated_at: at }).returningAll().executeTakeFirstOrThrow();
      if ('passwordHash' in start) {
        await tx.insertInto('credentials').values({ subject_type: 'staff', subject_id: id, password_hash: start.passwordHash, totp_secret_sealed: null, totp_pending_sealed: null, totp_last_step: null, recovery_hashes: null, updated_at: at }).execute();
      } else {
        await tx.insertInto('invitations').values({ token_hash: start.invitation.tokenHash, subject_type: 'staff', subject_id: id, expires_at: start.invitation.expiresAt, used_at: null, created_at: at }).execute();
      }
      const s = toStaff(row);
      await recordAudit(tx, this.ids, at, { actor, action: 'staff.create', subjectType: 'staff', subjectId: id, before: null, after: view(s) });
      return s;
    });
  }

  /** Role change; the last active admin keeps the role (someone must be able to administer). */
  async setRole(actor: string, id: string, role: StaffRole): Promise<Staff> {
    return this.#change(actor, id, 'staff.role', { role });
  }

  /** Removal: sessions end and tokens stop at once, in the same transaction. */
  async remove(actor: string, id: string): Promise<Staff> {
    return this.#change(actor, id, 'staff.remove', { status: 'removed' });
  }

  async #change(actor: string, id: string, action: string, set: { role?: StaffRole; status?: 'removed' }): Promise<Staff> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      // Every admin row is locked in one order, so two concurrent demotions cannot both pass the last-admin check.
      await tx.selectFrom('staff').select('id').where('role', '=', 'admin').orderBy('id').forUpdate().execute();
      const cur = await tx.selectFrom('staff').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!cur) throw new DomainError('staff.not_found');
      if (cur.status === 'removed') throw new DomainError('staff.removed');
      const losesAdmin = cur.role === 'admin' && cur.status === 'active' && (set.status === 'removed' || (set.role !== undefined && set.role !== 'admin'));
      if (losesAdmin) {
        const admins = await tx.selectFrom('staff').select('id').where('role', '=', 'admin').where('status', '=', 'active').execute();
        if (admins.length <= 1) throw new DomainError('staff.last_admin');
      }
      const row = await tx.updateTable('staff').set({ ...set, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      if (set.status === 'removed') {
        await tx.updateTable('sessions').set({ ended_at: at }).where('kind', '=', 'staff').where('subject_id', '=', id).where('ended_at', 'is', null).execute();
        await tx.updateTable('staff_tokens').set({ revoked_at: at }).where('staff_id', '=', id).where('revoked_at', 'is', null).execute();
      }
      const after = toStaff(row);
      await recordAudit(tx, this.ids, at, { actor, action, subjectType: 'staff', subjectId: id, before: view(toStaff(cur)), after: view(after) });
      return after;
    });
  }

  // personal tokens

  async issueToken(actor: string, staffId: string, r: { name: string; prefix: string; secretHash: string }): Promise<StaffToken> {
    const at = this.clock.now();
    const id = this.ids.next('otk');
    return this.db.transaction().execute(async (tx) => {
      await tx.insertInto('staff_tokens').values({ id, staff_id: staffId, name: r.name, prefix: r.prefix, secret_hash: r.secretHash, created_at: at, last_used_at: null, revoked_at: null }).execute();
      await recordAudit(tx, this.ids, at, { actor, action: 'staff_token.issue', subjectType: 'staff_token', subjectId: id, before: null, after: { staffId, name: r.name, prefix: r.prefix } });
      return { id, name: r.name, prefix: r.prefix, createdAt: at, lastUsedAt: null, revokedAt: null };
    });
  }

  async tokens(staffId: string): Promise<StaffToken[]> {
    const rows = await this.db.selectFrom('staff_tokens').select(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'])
      .where('staff_id', '=', staffId).orderBy('seq', 'desc').execute();
    return rows.map((r) => ({ id: r.id, name: r.name, prefix: r.prefix, createdAt: r.created_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at }));
  }

  /** Revokes one of the person's own tokens (another person's is not found). */
  async revokeToken(actor: string, staffId: string, tokenId: string): Promise<StaffToken> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const cur = await tx.selectFrom('staff_tokens').selectAll().where('id', '=', tokenId).where('staff_id', '=', staffId).forUpdate().executeTakeFirst();
      if (!cur) throw new DomainError('staff.token_not_found');
      const revokedAt = cur.revoked_at ?? at;
      if (!cur.revoked_at) {
        await tx.updateTable('staff_tokens').set({ revoked_at: at }).where('id', '=', tokenId).execute();
        await recordAudit(tx, this.ids, at, { actor, action: 'staff_token.revoke', subjectType: 'staff_token', subjectId: tokenId, before: { revokedAt: null }, after: { revokedAt: at } });
      }
      return { id: cur.id, name: cur.name, prefix: cur.prefix, createdAt: cur.created_at, lastUsedAt: cur.last_used_at, revokedAt };
    });
  }

  /** What authenticating a token needs: the token, its person (active or not) and whether TOTP is enrolled. */
  async forToken(prefix: string) {
    const r = await this.db.selectFrom('staff_tokens as t').innerJoin('staff as p', 'p.id', 't.staff_id')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'p.id').on('c.subject_type', '=', 'staff'))
      .select(['t.id as token_id', 't.secret_hash', 't.revoked_at', 't.last_used_at', 'p.id', 'p.name', 'p.email', 'p.role', 'p.status', 'p.created_at', 'p.updated_at', 'c.totp_secret_sealed'])
      .where('t.prefix', '=', prefix).executeTakeFirst();
    if (!r) return null;
    return { tokenId: r.token_id, secretHash: r.secret_hash, revoked: r.revoked_at !== null, lastUsedAt: r.last_used_at, staff: toStaff(r), totpEnrolled: r.totp_secret_sealed !== null };
  }

  async touchToken(tokenId: string): Promise<void> {
    await this.db.updateTable('staff_tokens').set({ last_used_at: this.clock.now() }).where('id', '=', tokenId).execute();
  }
}

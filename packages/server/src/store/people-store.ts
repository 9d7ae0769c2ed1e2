import { sql } from 'kysely';
import { THROTTLE } from '../domain/people/throttle.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import { recordAudit, type AuditRecord } from './audit-store.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import { toMember, toOrganization } from './organizations-store.ts';
import { toStaff } from './staff-store.ts';

export type PersonKind = 'member' | 'staff';

/** Rolls back an attempt's reservation when one of its keys is locked. */
class KeyLocked extends Error {}

/** What signing in needs of a person: who, and their credentials. */
export interface PersonCredentials {
  kind: PersonKind; id: string; name: string; email: string; status: string;
  passwordHash: string | null; totpSealed: string | null; totpPendingSealed: string | null; totpLastStep: number | null; recoveryHashes: string[];
}

export interface SessionRow { kind: PersonKind; subjectId: string; createdAt: Date; lastSeenAt: Date; expiresAt: Date }

type CredRow = { password_hash: string | null; totp_secret_sealed: string | null; totp_pending_sealed: string | null; totp_last_step: string | number | null; recovery_hashes: string[] | null };
const toCreds = (kind: PersonKind, p: { id: string; name: string; email: string; status: string }, c: CredRow | undefined): PersonCredentials => ({
  kind, id: p.id, name: p.name, email: p.email, status: p.status,
  passwordHash: c?.password_hash ?? null, totpSealed: c?.totp_secret_sealed ?? null, totpPendingSealed: c?.totp_pending_sealed ?? null,
  totpLastStep: c?.totp_last_step === null || c?.totp_last_step === undefined ? null : Number(c.totp_last_step), recoveryHashes: c?.recovery_hashes ?? [],
});

const table = (kind: PersonKind) => (kind === 'member' ? 'members' : 'staff');

/**
 * Credentials, invitations, sessions and sign-in throttling of people, members and staff alike. Only
 * hashes and sealed values are stored; every secret is made and shown by the caller.
 */
export class PeopleStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  async audit(r: AuditRecord): Promise<void> {
    await this.db.transaction().execute((tx) => recordAudit(tx, this.ids, this.clock.now(), r));
  }

  /** Active persons with this email (a person may be a member of several organizations). */
  async activeByEmail(kind: PersonKind, email: string): Promise<PersonCredentials[]> {
    const rows = await this.db.selectFrom(`${table(kind)} as p` as 'members as p')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'p.id').on('c.subject_type', '=', kind))
      .select(['p.id', 'p.name', 'p.email', 'p.status', 'c.password_hash', 'c.totp_secret_sealed', 'c.totp_pending_sealed', 'c.totp_last_step', 'c.recovery_hashes'])
      .where('p.email', '=', email.toLowerCase()).where('p.status', '=', 'active').limit(5).execute();
    return rows.map((r) => toCreds(kind, r, r));
  }

  async credentialsOf(kind: PersonKind, id: string): Promise<PersonCredentials | null> {
    const r = await this.db.selectFrom(`${table(kind)} as p` as 'members as p')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'p.id').on('c.subject_type', '=', kind))
      .select(['p.id', 'p.name', 'p.email', 'p.status', 'c.password_hash', 'c.totp_secret_sealed', 'c.totp_pending_sealed', 'c.totp_last_step', 'c.recovery_hashes'])
      .where('p.id', '=', id).executeTakeFirst();
    return r ? toCreds(kind, r, r) : null;
  }

  async #upsert(db: Db, kind: PersonKind, id: string, set: Partial<{ password_hash: string; totp_secret_sealed: string | null; totp_pending_sealed: string | null; totp_last_step: string | null; recovery_hashes: string | null }>): Promise<void> {
    const at = this.clock.now();
    await db.insertInto('credentials').values({
      subject_type: kind, subject_id: id, password_hash: null, totp_secret_sealed: null, totp_pending_sealed: null, totp_last_step: null, recovery_hashes: null, updated_at: at, ...set,
    }).onConflict((oc) => oc.columns(['subject_type', 'subject_id']).doUpdateSet({ ...set, updated_at: at })).execute();
  }

  /** A new password; every session of the person except `keepSession` ends. */
  async setPassword(kind: PersonKind, id: string, hash: string, keepSession: string | null, audit: AuditRecord): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await this.#upsert(tx, kind, id, { password_hash: hash });
      let q = tx.updateTable('sessions').set({ ended_at: this.clock.now() }).where('kind', '=', kind).where('subject_id', '=', id).where('ended_at', 'is', null);
      if (keepSession) q = q.where('id_hash', '<>', keepSession);
      await q.execute();
      await recordAudit(tx, this.ids, this.clock.now(), audit);
    });
  }

  /** The same password hashed again (its email's salt, today's cost); sessions go on. */
  async rehashPassword(kind: PersonKind, id: string, hash: string): Promise<void> {
    await this.#upsert(this.db, kind, id, { password_hash: hash });
  }

  async setTotpPending(kind: PersonKind, id: string, sealed: string): Promise<void> {
    await this.#upsert(this.db, kind, id, { totp_pending_sealed: sealed });
  }

  /** The pending secret becomes the active one, with its first step used and the recovery codes' hashes. */
  async confirmTotp(kind: PersonKind, id: string, sealed: string, step: number, recoveryHashes: string[], audit: AuditRecord): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await this.#upsert(tx, kind, id, { totp_secret_sealed: sealed, totp_pending_sealed: null, totp_last_step: String(step), recovery_hashes: toJson(recoveryHashes) });
      await recordAudit(tx, this.ids, this.clock.now(), audit);
    });
  }

  /** A password set by the service itself (the sandbox's demo sign-ins): the person becomes active, other sessions end. */
  async setInitialPassword(kind: PersonKind, id: string, hash: string, audit: AuditRecord): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.updateTable(table(kind) as 'members').set({ status: 'active', updated_at: this.clock.now() }).where('id', '=', id).where('status', '<>', 'removed').execute();
      await this.#upsert(tx, kind, id, { password_hash: hash });
      await tx.updateTable('sessions').set({ ended_at: this.clock.now() }).where('kind', '=', kind).where('subject_id', '=', id).where('ended_at', 'is', null).execute();
      await recordAudit(tx, this.ids, this.clock.now(), audit);
    });
  }

  /** Records a TOTP step as used, only if it is later than the last one: false means a replay (or a race lost to one). */
  async useTotpStep(kind: PersonKind, id: string, step: number): Promise<boolean> {
    const r = await this.db.updateTable('credentials').set({ totp_last_step: String(step), updated_at: this.clock.now() })
      .where('subject_type', '=', kind).where('subject_id', '=', id)
      .where((w) => w.or([w('totp_last_step', 'is', null), w('totp_last_step', '<', String(step))]))
      .returning('subject_id').executeTakeFirst();
    return r !== undefined;
  }

  /** Spends a recovery code: true once per code. */
  async useRecoveryCode(kind: PersonKind, id: string, hash: string): Promise<boolean> {
    const r = await this.db.updateTable('credentials').set({ recovery_hashes: sql`recovery_hashes - ${hash}::text`, updated_at: this.clock.now() })
      .where('subject_type', '=', kind).where('subject_id', '=', id).where(sql<boolean>`jsonb_exists(recovery_hashes, ${hash}::text)`)
      .returning('subject_id').executeTakeFirst();
    return r !== undefined;
  }

  // invitations

  async createInvitation(db: Db, kind: PersonKind, id: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await db.insertInto('invitations').values({ token_hash: tokenHash, subject_type: kind, subject_id: id, expires_at: expiresAt, used_at: null, created_at: this.clock.now() }).execute();
  }

  /** The email of the person an unused, unexpired invitation is for (still invited), or null. */
  async invitedEmail(kind: PersonKind, tokenHash: string): Promise<string | null> {
    const r = await this.db.selectFrom('invitations as i').innerJoin(`${table(kind)} as p` as 'members as p', 'p.id', 'i.subject_id')
      .select('p.email').where('i.token_hash', '=', tokenHash).where('i.subject_type', '=', kind).where('i.used_at', 'is', null)
      .where('i.expires_at', '>', this.clock.now()).where('p.status', '=', 'invited').executeTakeFirst();
    return r?.email ?? null;
  }

  /**
   * Uses an invitation once: the token must be unused and unexpired and its person still invited. The
   * person becomes active with the password. Null: the token is unknown, used, expired or revoked.
   */
  async acceptInvitation(kind: PersonKind, tokenHash: string, passwordHash: string, audit: (id: string) => AuditRecord): Promise<string | null> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const inv = await tx.updateTable('invitations').set({ used_at: at })
        .where('token_hash', '=', tokenHash).where('subject_type', '=', kind).where('used_at', 'is', null).where('expires_at', '>', at)
        .returning('subject_id').executeTakeFirst();
      if (!inv) return null;
      const p = await tx.updateTable(table(kind) as 'members').set({ status: 'active', updated_at: at })
        .where('id', '=', inv.subject_id).where('status', '=', 'invited').returning('id').executeTakeFirst();
      if (!p) return null;
      await this.#upsert(tx, kind, p.id, { password_hash: passwordHash });
      await recordAudit(tx, this.ids, at, audit(p.id));
      return p.id;
    });
  }

  // sessions

  async createSession(kind: PersonKind, id: string, idHash: string, maxMs: number, endHash: string | null): Promise<Date> {
    const at = this.clock.now();
    const expiresAt = new Date(at.getTime() + maxMs);
    await this.db.transaction().execute(async (tx) => {
      // Rotation: the session the browser held before signing in (if any) ends now.
      if (endHash) await tx.updateTable('sessions').set({ ended_at: at }).where('id_hash', '=', endHash).where('ended_at', 'is', null).execute();
      await tx.insertInto('sessions').values({ id_hash: idHash, kind, subject_id: id, created_at: at, last_seen_at: at, expires_at: expiresAt, ended_at: null }).execute();
    });
    return expiresAt;
  }

  /** A member's session with everything a request needs, in one read: the member, the organization, TOTP, the platform's state. */
  async memberSession(idHash: string) {
    const r = await this.db.selectFrom('sessions as s')
      .innerJoin('members as m', 'm.id', 's.subject_id')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'm.id').on('c.subject_type', '=', 'member'))
      .select([
        's.last_seen_at', 's.expires_at', 's.created_at as session_created_at',
        'm.id', 'm.organization_id', 'm.name', 'm.email', 'm.permissions', 'm.status', 'm.created_at', 'm.updated_at',
        'o.id as org_id', 'o.name as org_name', 'o.status as org_status', 'o.limits as org_limits', 'o.require_totp as org_require_totp',
        'o.created_at as org_created_at', 'o.updated_at as org_updated_at', 'c.totp_secret_sealed',
        sql<boolean>`coalesce((select reconciled from platform_state where id = 1), true)`.as('reconciled'),
      ])
      .where('s.id_hash', '=', idHash).where('s.kind', '=', 'member').where('s.ended_at', 'is', null).where('m.status', '=', 'active')
      .executeTakeFirst();
    if (!r) return null;
    return {
      session: { lastSeenAt: r.last_seen_at, expiresAt: r.expires_at, createdAt: r.session_created_at },
      member: toMember(r),
      organization: toOrganization({ id: r.org_id, name: r.org_name, status: r.org_status, limits: r.org_limits, require_totp: r.org_require_totp, created_at: r.org_created_at, updated_at: r.org_updated_at }),
      totpEnrolled: r.totp_secret_sealed !== null,
      reconciled: r.reconciled,
    };
  }

  /** A staff person's session: the person (active) and whether TOTP is enrolled. */
  async staffSession(idHash: string) {
    const r = await this.db.selectFrom('sessions as s')
      .innerJoin('staff as p', 'p.id', 's.subject_id')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'p.id').on('c.subject_type', '=', 'staff'))
      .select(['s.last_seen_at', 's.expires_at', 'p.id', 'p.name', 'p.email', 'p.role', 'p.status', 'p.created_at', 'p.updated_at', 'c.totp_secret_sealed'])
      .where('s.id_hash', '=', idHash).where('s.kind', '=', 'staff').where('s.ended_at', 'is', null).where('p.status', '=', 'active')
      .executeTakeFirst();
    if (!r) return null;
    return { session: { lastSeenAt: r.last_seen_at, expiresAt: r.expires_at }, staff: toStaff(r), totpEnrolled: r.totp_secret_sealed !== null };
  }

  /** Moves a session's last use forward (the caller does it at most once a minute). */
  async touchSession(idHash: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: this.clock.now() }).where('id_hash', '=', idHash).execute();
  }

  async endSession(idHash: string): Promise<void> {
    await this.db.updateTable('sessions').set({ ended_at: this.clock.now() }).where('id_hash', '=', idHash).where('ended_at', 'is', null).execute();
  }

  // throttling

  /** The latest lock among these keys still in force, or null. */
  async lockedUntil(keys: string[]): Promise<Date | null> {
    const now = this.clock.now();
    const rows = await this.db.selectFrom('sign_in_failures').select('locked_until').where('key', 'in', keys).where('locked_until', '>', now).execute();
    const ts = rows.map((r) => r.locked_until!.getTime());
    return ts.length ? new Date(Math.max(...ts)) : null;
  }

  /**
   * Reserves one sign-in attempt on every key, before the password is verified: each key's count goes up
   * at once (an attempt in flight counts as a failure), and the attempt that reaches a key's limit locks
   * it. The row's lock (ON CONFLICT DO UPDATE) orders parallel attempts, so at most `limit` of them are
   * ever verified in a window however many arrive together. A key already locked reserves nothing: the
   * answer is its lock's end, and no other key is counted either (one transaction).
   */
  async reserveAttempt(keys: Array<{ key: string; limit: number; lockMs: number }>): Promise<Date | null> {
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - THROTTLE.windowMs);
    try {
      await this.db.transaction().execute(async (tx) => {
        for (const k of keys) {
          const lockUntil = new Date(now.getTime() + k.lockMs);
          const counted = sql`case when sign_in_failures.window_start < ${windowStart} then 1 else sign_in_failures.failures + 1 end`;
          const r = await sql<{ key: string }>`
            insert into sign_in_failures (key, failures, window_start, locked_until) values (${k.key}, 1, ${now}, ${k.limit <= 1 ? lockUntil : null})
            on conflict (key) do update set
              failures = ${counted},
              window_start = case when sign_in_failures.window_start < ${windowStart} then ${now} else sign_in_failures.window_start end,
              locked_until = case when ${counted} >= ${k.limit} then ${lockUntil} else sign_in_failures.locked_until end
            where sign_in_failures.locked_until is null or sign_in_failures.locked_until <= ${now}
            returning key`.execute(tx);
          if (r.rows.length === 0) throw new KeyLocked();
        }
      });
      return null;
    } catch (e) {
      if (!(e instanceof KeyLocked)) throw e;
      return (await this.lockedUntil(keys.map((k) => k.key))) ?? new Date(now.getTime() + 1000);
    }
  }

  /** Gives back an attempt reserved on each key (it was not a failure): one less, and no lock below the limit. */
  async releaseAttempt(keys: Array<{ key: string; limit: number }>): Promise<void> {
    for (const k of keys) {
      await sql`update sign_in_failures set failures = greatest(failures - 1, 0),
          locked_until = case when failures - 1 < ${k.limit} then null else locked_until end
        where key = ${k.key}`.execute(this.db);
    }
  }

  async clearFailures(key: string): Promise<void> {
    await this.db.deleteFrom('sign_in_failures').where('key', '=', key).execute();
  }
}

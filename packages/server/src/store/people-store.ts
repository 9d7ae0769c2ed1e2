import { sql } from 'kysely';
import type { Clock } from '../domain/ports.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import { toMember, toOrganization } from './organizations-store.ts';
import { toStaff } from './staff-store.ts';
import type { Tx } from './unit-of-work.ts';
import type { PersonKind, PersonCredentials, ThrottleKey, CredentialsSet, PeopleRepository } from '../usecases/repositories.ts';

export type { PersonKind, PersonCredentials, ThrottleKey, CredentialsSet };

type CredentialColumns = Partial<{
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_pending_sealed: string | null;
  totp_last_step: string | null;
  recovery_hashes: string | null;
}>;

export interface SessionRow {
  kind: PersonKind;
  subjectId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

type CredRow = {
  password_hash: string | null;
  totp_secret_sealed: string | null;
  totp_pending_sealed: string | null;
  totp_last_step: string | number | null;
  recovery_hashes: string[] | null;
};
const toCreds = (
  kind: PersonKind,
  p: { id: string; name: string; email: string; status: string },
  c: CredRow | undefined,
): PersonCredentials => ({
  kind,
  id: p.id,
  name: p.name,
  email: p.email,
  status: p.status,
  passwordHash: c?.password_hash ?? null,
  totpSealed: c?.totp_secret_sealed ?? null,
  totpPendingSealed: c?.totp_pending_sealed ?? null,
  totpLastStep: c?.totp_last_step === null || c?.totp_last_step === undefined ? null : Number(c.totp_last_step),
  recoveryHashes: c?.recovery_hashes ?? [],
});

const table = (kind: PersonKind) => (kind === 'member' ? 'members' : 'staff');

/**
 * Credentials, invitations, sessions and sign-in throttling of people, members and staff alike. Only
 * hashes and sealed values are stored; every secret is made and shown by the caller. Writes go through
 * the use case's transaction (usecases/people, usecases/staff), which decides and audits.
 */
export class PeopleStore implements PeopleRepository {
  // `ids` stays in the signature the store is built with; the use cases make every id now.
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Active persons with this email (a person may be a member of several organizations). */
  async emailOfMember(organizationId: string, id: string): Promise<string | null> {
    const r = await this.db
      .selectFrom('members')
      .select('email')
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return r?.email ?? null;
  }

  async activeMemberOrganizations(email: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('members')
      .select('organization_id')
      .where('email', '=', email.toLowerCase())
      .where('status', '=', 'active')
      .execute();
    return rows.map((r) => r.organization_id);
  }

  async organizationsOfMembers(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('members as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['m.id', 'o.name'])
      .where('m.id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async activeByEmail(kind: PersonKind, email: string): Promise<PersonCredentials[]> {
    const rows = await this.db
      .selectFrom(`${table(kind)} as p` as 'members as p')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'p.id').on('c.subject_type', '=', kind))
      .select([
        'p.id',
        'p.name',
        'p.email',
        'p.status',
        'c.password_hash',
        'c.totp_secret_sealed',
        'c.totp_pending_sealed',
        'c.totp_last_step',
        'c.recovery_hashes',
      ])
      .where('p.email', '=', email.toLowerCase())
      .where('p.status', '=', 'active')
      .limit(5)
      .execute();
    return rows.map((r) => toCreds(kind, r, r));
  }

  async credentialsOf(kind: PersonKind, id: string): Promise<PersonCredentials | null> {
    const r = await this.db
      .selectFrom(`${table(kind)} as p` as 'members as p')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'p.id').on('c.subject_type', '=', kind))
      .select([
        'p.id',
        'p.name',
        'p.email',
        'p.status',
        'c.password_hash',
        'c.totp_secret_sealed',
        'c.totp_pending_sealed',
        'c.totp_last_step',
        'c.recovery_hashes',
      ])
      .where('p.id', '=', id)
      .executeTakeFirst();
    return r ? toCreds(kind, r, r) : null;
  }

  /** Writes these credential fields of the person, making their credentials row when there is none yet. */
  async putCredentials(tx: Tx, kind: PersonKind, id: string, set: CredentialsSet, at: Date): Promise<void> {
    await this.#putColumns(
      tx,
      kind,
      id,
      {
        ...(set.passwordHash !== undefined ? { password_hash: set.passwordHash } : {}),
        ...(set.totpPendingSealed !== undefined ? { totp_pending_sealed: set.totpPendingSealed } : {}),
      },
      at,
    );
  }

  async #putColumns(tx: Tx, kind: PersonKind, id: string, set: CredentialColumns, at: Date): Promise<void> {
    await tx
      .insertInto('credentials')
      .values({
        subject_type: kind,
        subject_id: id,
        password_hash: null,
        totp_secret_sealed: null,
        totp_pending_sealed: null,
        totp_last_step: null,
        recovery_hashes: null,
        updated_at: at,
        ...set,
      })
      .onConflict((oc) => oc.columns(['subject_type', 'subject_id']).doUpdateSet({ ...set, updated_at: at }))
      .execute();
  }

  /** The pending TOTP secret becomes the active one, with its first step used and the recovery codes' hashes. */
  async activateTotp(
    tx: Tx,
    kind: PersonKind,
    id: string,
    sealed: string,
    step: number,
    recoveryHashes: string[],
    at: Date,
  ): Promise<void> {
    await this.#putColumns(
      tx,
      kind,
      id,
      { totp_secret_sealed: sealed, totp_pending_sealed: null, totp_last_step: String(step), recovery_hashes: toJson(recoveryHashes) },
      at,
    );
  }

  /** The person becomes active, unless removed. */
  async activate(tx: Tx, kind: PersonKind, id: string, at: Date): Promise<void> {
    await tx
      .updateTable(table(kind) as 'members')
      .set({ status: 'active', updated_at: at })
      .where('id', '=', id)
      .where('status', '<>', 'removed')
      .execute();
  }

  /** Records a TOTP step as used, only if it is later than the last one: false means a replay (or a race lost to one). */
  async useTotpStep(tx: Tx, kind: PersonKind, id: string, step: number, at: Date): Promise<boolean> {
    const r = await tx
      .updateTable('credentials')
      .set({ totp_last_step: String(step), updated_at: at })
      .where('subject_type', '=', kind)
      .where('subject_id', '=', id)
      .where((w) => w.or([w('totp_last_step', 'is', null), w('totp_last_step', '<', String(step))]))
      .returning('subject_id')
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Spends a recovery code: true once per code. */
  async useRecoveryCode(tx: Tx, kind: PersonKind, id: string, hash: string, at: Date): Promise<boolean> {
    const r = await tx
      .updateTable('credentials')
      .set({ recovery_hashes: sql`recovery_hashes - ${hash}::text`, updated_at: at })
      .where('subject_type', '=', kind)
      .where('subject_id', '=', id)
      .where(sql<boolean>`jsonb_exists(recovery_hashes, ${hash}::text)`)
      .returning('subject_id')
      .executeTakeFirst();
    return r !== undefined;
  }

  // invitations

  async createInvitation(tx: Tx, kind: PersonKind, id: string, tokenHash: string, expiresAt: Date, at: Date): Promise<void> {
    await tx
      .insertInto('invitations')
      .values({ token_hash: tokenHash, subject_type: kind, subject_id: id, expires_at: expiresAt, used_at: null, created_at: at })
      .execute();
  }

  /** The email of the person an unused, unexpired invitation is for (still invited), or null. */
  async invitedEmail(kind: PersonKind, tokenHash: string): Promise<string | null> {
    const r = await this.db
      .selectFrom('invitations as i')
      .innerJoin(`${table(kind)} as p` as 'members as p', 'p.id', 'i.subject_id')
      .select('p.email')
      .where('i.token_hash', '=', tokenHash)
      .where('i.subject_type', '=', kind)
      .where('i.used_at', 'is', null)
      .where('i.expires_at', '>', this.clock.now())
      .where('p.status', '=', 'invited')
      .executeTakeFirst();
    return r?.email ?? null;
  }

  /** Marks an unused, unexpired invitation used: the id of the person it is for, or null (unknown, used or expired). */
  async useInvitation(tx: Tx, kind: PersonKind, tokenHash: string, at: Date): Promise<string | null> {
    const inv = await tx
      .updateTable('invitations')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('subject_type', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .returning('subject_id')
      .executeTakeFirst();
    return inv?.subject_id ?? null;
  }

  /** An invited person becomes active: their id, or null when they are no longer invited (revoked). */
  async activateInvited(tx: Tx, kind: PersonKind, id: string, at: Date): Promise<string | null> {
    const p = await tx
      .updateTable(table(kind) as 'members')
      .set({ status: 'active', updated_at: at })
      .where('id', '=', id)
      .where('status', '=', 'invited')
      .returning('id')
      .executeTakeFirst();
    return p?.id ?? null;
  }

  // sessions

  async insertSession(tx: Tx, s: { idHash: string; kind: PersonKind; subjectId: string; at: Date; expiresAt: Date }): Promise<void> {
    await tx
      .insertInto('sessions')
      .values({
        id_hash: s.idHash,
        kind: s.kind,
        subject_id: s.subjectId,
        created_at: s.at,
        last_seen_at: s.at,
        expires_at: s.expiresAt,
        ended_at: null,
      })
      .execute();
  }

  /** Ends every open session of the person, except the one with `keepHash` when given. */
  async endSessionsOf(tx: Tx, kind: PersonKind, id: string, at: Date, keepHash: string | null = null): Promise<void> {
    let q = tx
      .updateTable('sessions')
      .set({ ended_at: at })
      .where('kind', '=', kind)
      .where('subject_id', '=', id)
      .where('ended_at', 'is', null);
    if (keepHash) q = q.where('id_hash', '<>', keepHash);
    await q.execute();
  }

  /** A member's session with everything a request needs, in one read: the member, the organization, TOTP, the platform's state. */
  async memberSession(idHash: string) {
    const r = await this.db
      .selectFrom('sessions as s')
      .innerJoin('members as m', 'm.id', 's.subject_id')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'm.id').on('c.subject_type', '=', 'member'))
      .select([
        's.last_seen_at',
        's.expires_at',
        's.created_at as session_created_at',
        'm.id',
        'm.organization_id',
        'm.name',
        'm.email',
        'm.permissions',
        'm.status',
        'm.created_at',
        'm.updated_at',
        'o.id as org_id',
        'o.name as org_name',
        'o.status as org_status',
        'o.limits as org_limits',
        'o.require_totp as org_require_totp',
        'o.created_at as org_created_at',
        'o.updated_at as org_updated_at',
        'c.totp_secret_sealed',
        sql<boolean>`coalesce((select reconciled from platform_state where id = 1), true)`.as('reconciled'),
      ])
      .where('s.id_hash', '=', idHash)
      .where('s.kind', '=', 'member')
      .where('s.ended_at', 'is', null)
      .where('m.status', '=', 'active')
      .executeTakeFirst();
    if (!r) return null;
    return {
      session: { lastSeenAt: r.last_seen_at, expiresAt: r.expires_at, createdAt: r.session_created_at },
      member: toMember(r),
      organization: toOrganization({
        id: r.org_id,
        name: r.org_name,
        status: r.org_status,
        limits: r.org_limits,
        require_totp: r.org_require_totp,
        created_at: r.org_created_at,
        updated_at: r.org_updated_at,
      }),
      totpEnrolled: r.totp_secret_sealed !== null,
      reconciled: r.reconciled,
    };
  }

  /** A staff person's session: the person (active) and whether TOTP is enrolled. */
  async staffSession(idHash: string) {
    const r = await this.db
      .selectFrom('sessions as s')
      .innerJoin('staff as p', 'p.id', 's.subject_id')
      .leftJoin('credentials as c', (j) => j.onRef('c.subject_id', '=', 'p.id').on('c.subject_type', '=', 'staff'))
      .select([
        's.last_seen_at',
        's.expires_at',
        'p.id',
        'p.name',
        'p.email',
        'p.role',
        'p.status',
        'p.created_at',
        'p.updated_at',
        'c.totp_secret_sealed',
      ])
      .where('s.id_hash', '=', idHash)
      .where('s.kind', '=', 'staff')
      .where('s.ended_at', 'is', null)
      .where('p.status', '=', 'active')
      .executeTakeFirst();
    if (!r) return null;
    return {
      session: { lastSeenAt: r.last_seen_at, expiresAt: r.expires_at },
      staff: toStaff(r),
      totpEnrolled: r.totp_secret_sealed !== null,
    };
  }

  /** Moves a session's last use forward (the caller does it at most once a minute). */
  async touchSession(tx: Tx, idHash: string, at: Date): Promise<void> {
    await tx.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
  }

  async endSession(tx: Tx, idHash: string, at: Date): Promise<void> {
    await tx.updateTable('sessions').set({ ended_at: at }).where('id_hash', '=', idHash).where('ended_at', 'is', null).execute();
  }

  // throttling

  /** The latest lock among these keys still in force, or null. */
  async lockedUntil(keys: string[]): Promise<Date | null> {
    const now = this.clock.now();
    const rows = await this.db
      .selectFrom('sign_in_failures')
      .select('locked_until')
      .where('key', 'in', keys)
      .where('locked_until', '>', now)
      .execute();
    const ts = rows.map((r) => r.locked_until!.getTime());
    return ts.length ? new Date(Math.max(...ts)) : null;
  }

  /**
   * Counts one attempt on the key: its count goes up (a new window when the last began before
   * `windowStart`), and the attempt that reaches the limit locks it until `now` + lockMs. The row's lock
   * (ON CONFLICT DO UPDATE) orders parallel attempts. False: the key is locked now, and nothing was counted.
   */
  async countAttempt(tx: Tx, k: ThrottleKey, now: Date, windowStart: Date): Promise<boolean> {
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
    return r.rows.length > 0;
  }

  /** Gives back an attempt counted on the key (it was not a failure): one less, and no lock below the limit. */
  async releaseAttempt(tx: Tx, k: { key: string; limit: number }): Promise<void> {
    await sql`update sign_in_failures set failures = greatest(failures - 1, 0),
        locked_until = case when failures - 1 < ${k.limit} then null else locked_until end
      where key = ${k.key}`.execute(tx);
  }

  async clearFailures(tx: Tx, key: string): Promise<void> {
    await tx.deleteFrom('sign_in_failures').where('key', '=', key).execute();
  }
}

import { sql } from 'kysely';
import type { Clock } from '../domain/ports.ts';
import type { Db } from './db.ts';
import type { Tx } from './unit-of-work.ts';
import type { ApprovalAudience, MailKind, ClaimedMail, MailedEvent, MailRecipient, MailRepository } from '../usecases/repositories.ts';

export type { MailKind, ClaimedMail, MailedEvent, MailRecipient };

/**
 * Events whose mail tells a person something they wait for (docs/design/people-and-apps.md: approved, rejected,
 * credited), or something that waits for them (a request the organization's policy asks them to approve, docs/controls.md).
 */
export const MAILED_EVENT_TYPES = [
  'approval.requested',
  'order.approved',
  'order.rejected',
  'withdrawal.approved',
  'withdrawal.rejected',
  'deposit.credited',
] as const;

/**
 * The mail outbox, password-reset tokens and the notifier's cursor over the events. Only sealed mail and
 * token hashes are stored; the plain token lives in the mail the person receives.
 */
export class MailStore implements MailRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** A message to send as soon as a sender runs. */
  async enqueue(m: { id: string; kind: MailKind; to: string; sealed: string }): Promise<void> {
    const at = this.clock.now();
    await this.db
      .insertInto('mail_outbox')
      .values({
        id: m.id,
        kind: m.kind,
        to_address: m.to,
        sealed: m.sealed,
        state: 'pending',
        next_attempt_at: at,
        last_error: null,
        created_at: at,
        finished_at: null,
      })
      .execute();
  }

  /**
   * Claims up to `limit` due messages for `leaseMs`: a sender that dies mid-way leaves them to be claimed
   * again after the lease (a message may then go twice, never zero times). Any number of instances share it.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedMail[]> {
    const now = this.clock.now();
    const r = await sql<{ id: string; kind: MailKind; to_address: string; sealed: string; attempts: number }>`
      update mail_outbox set attempts = attempts + 1, next_attempt_at = ${new Date(now.getTime() + leaseMs)}
      where id in (select id from mail_outbox where state = 'pending' and next_attempt_at <= ${now}
                   order by next_attempt_at limit ${limit} for update skip locked)
      returning id, kind, to_address, sealed, attempts`.execute(this.db);
    return r.rows.map((x) => ({ id: x.id, kind: x.kind, to: x.to_address, sealed: x.sealed, attempts: Number(x.attempts) }));
  }

  /** Sent: the content (and its link) is erased. */
  async markSent(id: string): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set({ state: 'sent', sealed: null, last_error: null, finished_at: this.clock.now() })
      .where('id', '=', id)
      .execute();
  }

  /** Not sent this time: tried again at `retryAt`, or, with none, given up (the content erased, the error kept for the operator). */
  async markFailed(id: string, error: string, retryAt: Date | null): Promise<void> {
    const q = retryAt
      ? this.db.updateTable('mail_outbox').set({ last_error: error, next_attempt_at: retryAt })
      : this.db.updateTable('mail_outbox').set({ state: 'failed', sealed: null, last_error: error, finished_at: this.clock.now() });
    await q.where('id', '=', id).where('state', '=', 'pending').execute();
  }

  /** What the outbox holds, by state (the operator's view of mail that could not go). */
  async counts(): Promise<Record<'pending' | 'sent' | 'failed', number>> {
    const rows = await this.db
      .selectFrom('mail_outbox')
      .select(['state', sql<string>`count(*)`.as('n')])
      .groupBy('state')
      .execute();
    const out = { pending: 0, sent: 0, failed: 0 };
    for (const r of rows) out[r.state as keyof typeof out] = Number(r.n);
    return out;
  }

  /** Forgets mail finished (sent or given up) before `before`, and reset tokens expired by then. */
  async purgeFinished(before: Date): Promise<void> {
    await this.db.deleteFrom('mail_outbox').where('state', '<>', 'pending').where('finished_at', '<', before).execute();
    await this.db.deleteFrom('password_resets').where('expires_at', '<', before).execute();
  }

  // password resets

  /** A reset token for one account (`personId`) of the email. */
  async createReset(kind: 'member' | 'staff', email: string, personId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db
      .insertInto('password_resets')
      .values({
        token_hash: tokenHash,
        subject_type: kind,
        email,
        subject_id: personId,
        expires_at: expiresAt,
        used_at: null,
        created_at: this.clock.now(),
      })
      .execute();
  }

  /** The reset a token stands for, used or not (so an expired link can be told from an unknown one), and whose account it is. */
  async reset(
    kind: 'member' | 'staff',
    tokenHash: string,
  ): Promise<{ email: string; personId: string | null; expiresAt: Date; usedAt: Date | null } | null> {
    const r = await this.db
      .selectFrom('password_resets')
      .select(['email', 'subject_id', 'expires_at', 'used_at'])
      .where('token_hash', '=', tokenHash)
      .where('subject_type', '=', kind)
      .executeTakeFirst();
    return r ? { email: r.email, personId: r.subject_id, expiresAt: r.expires_at, usedAt: r.used_at } : null;
  }

  /**
   * Spends a reset token once, with every other unused one of the same account. False: the token was used
   * or expired meanwhile (nothing is written).
   */
  async spendReset(tx: Tx, kind: 'member' | 'staff', tokenHash: string, personId: string, at: Date): Promise<boolean> {
    const used = await tx
      .updateTable('password_resets')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('subject_type', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .returning('email')
      .executeTakeFirst();
    if (!used) return false;
    await tx
      .updateTable('password_resets')
      .set({ used_at: at })
      .where('subject_type', '=', kind)
      .where('subject_id', '=', personId)
      .where('used_at', 'is', null)
      .execute();
    return true;
  }

  // the language of a person

  async setLang(kind: 'member' | 'staff', id: string, lang: string): Promise<void> {
    if (kind === 'member')
      await this.db.updateTable('members').set({ lang }).where('id', '=', id).where('lang', 'is distinct from', lang).execute();
    else await this.db.updateTable('staff').set({ lang }).where('id', '=', id).where('lang', 'is distinct from', lang).execute();
  }

  // notifications

  /**
   * The cursor of mailed events, its row locked until `tx` ends (so two instances never mail one event
   * twice). On the first call it starts at the newest event: history is not mailed when mail is first set up.
   */
  async lockEventCursor(tx: Tx): Promise<{ txid: string; seq: string }> {
    await sql`insert into mail_cursor (id, txid, seq)
      select 1, coalesce(max(txid), -1), coalesce(max(seq), 0) from events on conflict (id) do nothing`.execute(tx);
    const c = await sql<{
      txid: string;
      seq: string;
    }>`select txid::text as txid, seq::text as seq from mail_cursor where id = 1 for update`.execute(tx);
    return c.rows[0]!;
  }

  /**
   * Mailed events after the cursor, in commit order: only events of transactions older than every one
   * still running, so none lands behind the cursor later.
   */
  async eventsAfter(tx: Tx, from: { txid: string; seq: string }, limit: number): Promise<MailedEvent[]> {
    const r = await sql<{ txid: string; seq: string; organization_id: string; type: string; data: Record<string, unknown> }>`
      select txid::text as txid, seq::text as seq, organization_id, type, data from events
      where type in (${sql.join(MAILED_EVENT_TYPES.map((t) => sql`${t}`))})
        and txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
        and (txid, seq) > (${from.txid}::bigint, ${from.seq}::bigint)
      order by txid, seq limit ${limit}`.execute(tx);
    return r.rows.map((x) => ({ txid: x.txid, seq: x.seq, organizationId: x.organization_id, type: x.type, data: x.data }));
  }

  /** The organization's name (its id when it has none) and who hears of its requests: its active members who manage the team. */
  async audience(tx: Tx, organizationId: string): Promise<{ organization: string; recipients: MailRecipient[] }> {
    const org = await tx.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst();
    const recipients = await tx
      .selectFrom('members')
      .select(['email', 'name', 'lang'])
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'active')
      .where(sql<boolean>`permissions @> '["portal:team"]'::jsonb`)
      .orderBy('email')
      .execute();
    return { organization: org?.name ?? organizationId, recipients };
  }

  /**
   * Who may approve a request that waits for the organization: its active members holding `portal:approve`,
   * the initiator aside; with the initiator's name and the request's amount (an order's base amount) when it has one.
   */
  async approvers(
    tx: Tx,
    e: { organizationId: string; kind: string; requestId: string; initiatorMemberId: string },
  ): Promise<ApprovalAudience> {
    const org = await tx.selectFrom('organizations').select('name').where('id', '=', e.organizationId).executeTakeFirst();
    const initiator = await tx
      .selectFrom('members')
      .select('name')
      .where('id', '=', e.initiatorMemberId)
      .where('organization_id', '=', e.organizationId)
      .executeTakeFirst();
    const money = await sql<{ asset_symbol: string | null; asset_decimals: number | null; amount_minor: string | null }>`
      select coalesce(w.asset_symbol, o.base_symbol) as asset_symbol, coalesce(w.asset_decimals, o.base_decimals) as asset_decimals,
        coalesce(w.amount_minor, o.amount_base_minor)::text as amount_minor
      from (select 1) one
      left join withdrawals w on ${e.kind}::text = 'withdrawals' and w.id = ${e.requestId} and w.organization_id = ${e.organizationId}
      left join orders o on ${e.kind}::text = 'orders' and o.id = ${e.requestId} and o.organization_id = ${e.organizationId}`.execute(tx);
    const m = money.rows[0];
    const recipients = await tx
      .selectFrom('members')
      .select(['email', 'name', 'lang'])
      .where('organization_id', '=', e.organizationId)
      .where('status', '=', 'active')
      .where('id', '<>', e.initiatorMemberId)
      .where(sql<boolean>`permissions @> '["portal:approve"]'::jsonb`)
      .orderBy('email')
      .execute();
    return {
      organization: org?.name ?? e.organizationId,
      initiator: initiator?.name ?? null,
      money:
        m && m.asset_symbol !== null && m.asset_decimals !== null && m.amount_minor !== null
          ? { assetSymbol: m.asset_symbol, assetDecimals: Number(m.asset_decimals), amountMinor: m.amount_minor }
          : null,
      recipients,
    };
  }

  /** A notification in the outbox, due at `at`. */
  async enqueueNotification(tx: Tx, m: { id: string; to: string; sealed: string }, at: Date): Promise<void> {
    await tx
      .insertInto('mail_outbox')
      .values({
        id: m.id,
        kind: 'notification',
        to_address: m.to,
        sealed: m.sealed,
        state: 'pending',
        next_attempt_at: at,
        last_error: null,
        created_at: at,
        finished_at: null,
      })
      .execute();
  }

  /** The cursor moves past `last`. */
  async advanceEventCursor(tx: Tx, last: { txid: string; seq: string }): Promise<void> {
    await sql`update mail_cursor set txid = ${last.txid}::bigint, seq = ${last.seq}::bigint where id = 1`.execute(tx);
  }
}

import { sql } from 'kysely';
import type { Db } from './db.ts';

export interface StoredEvent {
  id: string;
  type: string;
  createdAt: Date;
  data: Record<string, unknown>;
}

/** `evt_<seq>`: the id the API shows and takes back as a cursor. */
const idOf = (seq: string) => `evt_${seq}`;

/**
 * Events are written by triggers in the transaction of each state change (migrations/011); this reads
 * them, and emits `destination.usable`, which no write causes (a cooldown runs out).
 */
export class EventsStore {
  constructor(private readonly db: Db) {}

  /**
   * The organization's events after `after` (an event id of its own; absent: from the first), oldest
   * first. Only events of transactions older than every one still running are shown, in the order of
   * their transactions, so an event committed later never lands behind a cursor already handed out.
   * Undefined when `after` is not an event of this organization. With `subjectId`, only the events of
   * that record (the subject index finds them).
   */
  async list(organizationId: string, after: string | undefined, limit: number, subjectId?: string): Promise<StoredEvent[] | undefined> {
    let from = { txid: '-1', seq: '0' };
    if (after !== undefined) {
      const c = await this.db
        .selectFrom('events')
        .select(['txid', 'seq'])
        .where('seq', '=', after.slice(4))
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      if (!c) return undefined;
      from = { txid: String(c.txid), seq: String(c.seq) };
    }
    // The page as one JSON text (one field to decode, not four per event: on PGlite, decoding each
    // field of each row cost more than the query), parsed once here.
    const r = await sql<{ page: string }>`
      select coalesce(json_agg(json_build_array(e.seq::text, e.type, e.created_at, e.data) order by e.txid, e.seq), '[]')::text as page
      from (select txid, seq, type, created_at, data from events
        where organization_id = ${organizationId}${subjectId === undefined ? sql`` : sql` and subject_id = ${subjectId}`}
          and txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
          and (txid, seq) > (${from.txid}::bigint, ${from.seq}::bigint)
        order by txid, seq limit ${limit}) e`.execute(this.db);
    const page = JSON.parse(r.rows[0]!.page) as Array<[seq: string, type: string, createdAt: string, data: Record<string, unknown>]>;
    // createdAt: ISO 8601 with its offset and microseconds; a Date keeps the milliseconds, as the driver's did.
    return page.map(([seq, type, createdAt, data]) => ({ id: idOf(seq), type, createdAt: new Date(createdAt), data }));
  }

  /** Emits `destination.usable` once for every destination registered in the market whose cooldown is over. */
  async emitUsableDestinations(now: Date): Promise<number> {
    const r = await sql`insert into events (organization_id, type, subject_id, data, created_at)
      select d.organization_id, 'destination.usable', d.id, jsonb_build_object('id', d.id, 'label', d.label,
          'assetSymbol', d.asset_symbol, 'summary', d.summary, 'usable', true, 'createdAt', cambio_iso(d.created_at))
          || cambio_destination_kind(d.kind, d.network, d.address, d.memo),
        greatest(d.cooldown_until, d.registered_in_market_at)
      from withdrawal_destinations d
      where d.registered_in_market_at is not null and d.cooldown_until <= ${now} and d.state = 'active'
        and not exists (select 1 from events e where e.subject_id = d.id and e.type = 'destination.usable')`.execute(this.db);
    return Number(r.numAffectedRows ?? 0n);
  }
}

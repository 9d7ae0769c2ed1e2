import { sql } from 'kysely';
import type { Ids } from '../domain/ports.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import { mapPage, readPage, type Page, type PageParams } from './paging.ts';
import { kyselyOf } from './unit-of-work.ts';
import type { AuditRecord, AuditTrail, Tx } from '../usecases/repositories.ts';

export type { AuditRecord };

/** `actorName`, `actorEmail`: the person behind `staff:<id>`, `member:<id>` or `key:<id>` (the key's member), as they are named now. */
export interface AuditRow extends AuditRecord {
  id: string;
  createdAt: Date;
  actorName: string | null;
  actorEmail: string | null;
}
/**
 * `actor`: `staff:<id>`, `bootstrap`…; `person`: part of a person's name or email (staff or member; a
 * member's keys included); `organizationId`: entries about it and its records; `from` inclusive, `to` exclusive.
 */
export interface AuditFilter {
  subjectId?: string;
  action?: string;
  actor?: string;
  person?: string;
  organizationId?: string;
  from?: Date;
  to?: Date;
}

const likeText = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class AuditStore implements AuditTrail {
  constructor(private readonly db: Db) {}

  /** Written in the same transaction as the change it describes: no change without its record. */
  async record(tx: Tx, ids: Ids, at: Date, r: AuditRecord): Promise<void> {
    await kyselyOf(tx)
      .insertInto('audit_log')
      .values({
        id: ids.next('aud'),
        actor: r.actor,
        action: r.action,
        subject_type: r.subjectType,
        subject_id: r.subjectId,
        before: r.before === undefined || r.before === null ? null : toJson(r.before),
        after: r.after === undefined || r.after === null ? null : toJson(r.after),
        created_at: at,
      })
      .execute();
  }

  async list(p: PageParams, filter: AuditFilter = {}): Promise<Page<AuditRow>> {
    let q = this.db.selectFrom('audit_log');
    if (filter.subjectId) q = q.where('subject_id', '=', filter.subjectId);
    if (filter.action) q = q.where('action', '=', filter.action);
    // `bootstrap` also finds `bootstrap:<X-Operator name>`.
    if (filter.actor) {
      const a = filter.actor;
      q = q.where((eb) => eb.or([eb('actor', '=', a), eb('actor', 'like', `${a.replace(/[\\%_]/g, (c) => `\\${c}`)}:%`)]));
    }
    if (filter.person) {
      const like = likeText(filter.person.trim());
      const staff = this.db
        .selectFrom('staff')
        .select(sql<string>`'staff:' || id`.as('actor'))
        .where((eb) => eb.or([eb(sql`lower(name)`, 'like', like), eb(sql`lower(email)`, 'like', like)]));
      const members = this.db
        .selectFrom('members')
        .select(sql<string>`'member:' || id`.as('actor'))
        .where((eb) => eb.or([eb(sql`lower(name)`, 'like', like), eb(sql`lower(email)`, 'like', like)]));
      const keys = this.db
        .selectFrom('api_keys')
        .innerJoin('members', 'members.id', 'api_keys.member_id')
        .select(sql<string>`'key:' || api_keys.id`.as('actor'))
        .where((eb) => eb.or([eb(sql`lower(members.name)`, 'like', like), eb(sql`lower(members.email)`, 'like', like)]));
      q = q.where('actor', 'in', staff.union(members).union(keys));
    }
    if (filter.from) q = q.where('created_at', '>=', filter.from);
    if (filter.to) q = q.where('created_at', '<', filter.to);
    if (filter.organizationId) {
      const org = filter.organizationId;
      // The organization itself and every record of its own: requests, arrivals, people, keys, destinations,
      // declarations, webhook endpoints, policy changes.
      q = q.where((eb) =>
        eb.or([
          eb('subject_id', '=', org),
          eb('subject_id', 'in', eb.selectFrom('orders').select('id').where('organization_id', '=', org)),
          eb('subject_id', 'in', eb.selectFrom('withdrawals').select('id').where('organization_id', '=', org)),
          eb('subject_id', 'in', eb.selectFrom('deposits').select('id').where('organization_id', '=', org)),
          eb('subject_id', 'in', eb.selectFrom('members').select('id').where('organization_id', '=', org)),
          eb('subject_id', 'in', eb.selectFrom('api_keys').select('id').where('organization_id', '=', org)),
          eb('subject_id', 'in', eb.selectFrom('withdrawal_destinations').select('id').where('organization_id', '=', org)),
          eb('subject_id', 'in', eb.selectFrom('deposit_declarations').select('id').where('organization_id', '=', org)),
          eb('subject_id', 'in', eb.selectFrom('webhook_endpoints').select('id').where('organization_id', '=', org)),
          eb('subject_id', 'in', eb.selectFrom('organization_policy_changes').select('id').where('organization_id', '=', org)),
        ]),
      );
    }
    const page = await readPage(q, 'seq', p, (x) => x.selectAll());
    const people = await this.people(page.items.map((r) => r.actor));
    return mapPage(page, (r) => ({
      id: r.id,
      actor: r.actor,
      action: r.action,
      subjectType: r.subject_type,
      subjectId: r.subject_id,
      before: r.before,
      after: r.after,
      createdAt: r.created_at,
      actorName: people.get(r.actor)?.name ?? null,
      actorEmail: people.get(r.actor)?.email ?? null,
    }));
  }

  /** The people behind a page's actors, read once per page: staff and members by id, keys by their member. */
  private async people(actors: string[]): Promise<Map<string, { name: string; email: string }>> {
    const ids = (prefix: string) => [...new Set(actors.filter((a) => a.startsWith(prefix)).map((a) => a.slice(prefix.length)))];
    const out = new Map<string, { name: string; email: string }>();
    const staff = ids('staff:');
    const members = ids('member:');
    const keys = ids('key:');
    if (staff.length)
      for (const r of await this.db.selectFrom('staff').select(['id', 'name', 'email']).where('id', 'in', staff).execute())
        out.set(`staff:${r.id}`, r);
    if (members.length)
      for (const r of await this.db.selectFrom('members').select(['id', 'name', 'email']).where('id', 'in', members).execute())
        out.set(`member:${r.id}`, r);
    if (keys.length) {
      const rows = await this.db
        .selectFrom('api_keys')
        .innerJoin('members', 'members.id', 'api_keys.member_id')
        .select(['api_keys.id as id', 'members.name as name', 'members.email as email'])
        .where('api_keys.id', 'in', keys)
        .execute();
      for (const r of rows) out.set(`key:${r.id}`, { name: r.name, email: r.email });
    }
    return out;
  }
}

import type { Transaction } from 'kysely';
import type { Ids } from '../domain/ports.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import { mapPage, readPage, type Page, type PageParams } from './paging.ts';
import type { Database } from './schema.ts';

export interface AuditRecord {
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  before: unknown;
  after: unknown;
}
export interface AuditRow extends AuditRecord { id: string; createdAt: Date }
/** `actor`: `staff:<id>`, `bootstrap`…; `organizationId`: entries about it and its records; `from` inclusive, `to` exclusive. */
export interface AuditFilter { subjectId?: string; action?: string; actor?: string; organizationId?: string; from?: Date; to?: Date }

/** Written in the same transaction as the change it describes: no change without its record. */
export async function recordAudit(tx: Transaction<Database>, ids: Ids, at: Date, r: AuditRecord): Promise<void> {
  await tx.insertInto('audit_log').values({
    id: ids.next('aud'), actor: r.actor, action: r.action, subject_type: r.subjectType, subject_id: r.subjectId,
    before: r.before === undefined || r.before === null ? null : toJson(r.before),
    after: r.after === undefined || r.after === null ? null : toJson(r.after),
    created_at: at,
  }).execute();
}

export class AuditStore {
  constructor(private readonly db: Db) {}
  async list(p: PageParams, filter: AuditFilter = {}): Promise<Page<AuditRow>> {
    let q = this.db.selectFrom('audit_log');
    if (filter.subjectId) q = q.where('subject_id', '=', filter.subjectId);
    if (filter.action) q = q.where('action', '=', filter.action);
    // `bootstrap` also finds `bootstrap:<X-Operator name>`.
    if (filter.actor) { const a = filter.actor; q = q.where((eb) => eb.or([eb('actor', '=', a), eb('actor', 'like', `${a.replace(/[\\%_]/g, (c) => `\\${c}`)}:%`)])); }
    if (filter.from) q = q.where('created_at', '>=', filter.from);
    if (filter.to) q = q.where('created_at', '<', filter.to);
    if (filter.organizationId) {
      const org = filter.organizationId;
      // The organization itself and every record of its own: requests, arrivals, people, keys, destinations.
      q = q.where((eb) => eb.or([
        eb('subject_id', '=', org),
        eb('subject_id', 'in', eb.selectFrom('orders').select('id').where('organization_id', '=', org)),
        eb('subject_id', 'in', eb.selectFrom('withdrawals').select('id').where('organization_id', '=', org)),
        eb('subject_id', 'in', eb.selectFrom('deposits').select('id').where('organization_id', '=', org)),
        eb('subject_id', 'in', eb.selectFrom('members').select('id').where('organization_id', '=', org)),
        eb('subject_id', 'in', eb.selectFrom('api_keys').select('id').where('organization_id', '=', org)),
        eb('subject_id', 'in', eb.selectFrom('withdrawal_destinations').select('id').where('organization_id', '=', org)),
      ]));
    }
    return mapPage(await readPage(q, 'seq', p, (x) => x.selectAll()), (r) => ({
      id: r.id, actor: r.actor, action: r.action, subjectType: r.subject_type, subjectId: r.subject_id,
      before: r.before, after: r.after, createdAt: r.created_at,
    }));
  }
}

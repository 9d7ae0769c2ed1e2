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
  async list(p: PageParams, filter: { subjectId?: string; action?: string } = {}): Promise<Page<AuditRow>> {
    let q = this.db.selectFrom('audit_log');
    if (filter.subjectId) q = q.where('subject_id', '=', filter.subjectId);
    if (filter.action) q = q.where('action', '=', filter.action);
    return mapPage(await readPage(q, 'seq', p, (x) => x.selectAll()), (r) => ({
      id: r.id, actor: r.actor, action: r.action, subjectType: r.subject_type, subjectId: r.subject_id,
      before: r.before, after: r.after, createdAt: r.created_at,
    }));
  }
}

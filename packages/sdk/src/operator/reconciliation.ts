import type { AuditRecord, ReconciliationBooks, ReconciliationRunRecord, ReconciliationState } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import type { Page } from '../paginate.ts';
import { listPage } from '../resources/list.ts';
import { keyOf, type WriteOptions } from '../action-key.ts';

export type ReconciliationRun = Amounts<ReconciliationRunRecord>;
export type Reconciliation = Amounts<ReconciliationState>;

/** Compares the platform's books with the market's; a mismatch stops every client call that moves money. */
export class OperatorReconciliation {
  constructor(private readonly t: Transport) {}

  async run(
    p: { marketBalances?: Array<{ assetSymbol: string; amountMinor: bigint }> } = {},
    opts: WriteOptions = {},
  ): Promise<ReconciliationRun> {
    return (
      await this.t.request<ReconciliationRun>(
        { method: 'POST', path: '/reconciliation/run', body: p, ...keyOf(opts) },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }

  /** A person reviewed the mismatch: client operations resume. */
  async resolve(p: { note?: string } = {}, opts: WriteOptions = {}): Promise<Reconciliation> {
    return (
      await this.t.request<Reconciliation>(
        { method: 'POST', path: '/reconciliation/resolve', body: p, ...keyOf(opts) },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }

  /** What the books say the platform holds at the market, per asset, now (a run's differences before it is sent). */
  async books(): Promise<Array<{ assetSymbol: string; booksMinor: bigint }>> {
    const r = await this.t.get<Amounts<ReconciliationBooks>>('/reconciliation/books');
    return r.data.books;
  }

  async get(): Promise<Reconciliation> {
    return (await this.t.get<Reconciliation>('/reconciliation')).data;
  }
}

export interface AuditQuery {
  subjectId?: string;
  action?: string;
  actor?: string;
  organizationId?: string;
  from?: string;
  to?: string;
  page?: number;
  limit?: number;
  /** Part of a person's name or email: their entries as staff, as a member, and by their keys. */
  person?: string;
}

/** Every operator decision: who, what, when, before, after. */
export class OperatorAudit {
  constructor(private readonly t: Transport) {}

  /**
   * `actor`: `staff:<id>`, `bootstrap`…; `organizationId`: entries about that organization and its
   * requests; `from`/`to`: ISO times, `from` inclusive, `to` exclusive.
   */
  list(q: AuditQuery = {}): Promise<Page<AuditRecord>> {
    return listPage<AuditRecord>(this.t, '/audit', q, {
      subjectId: q.subjectId,
      action: q.action,
      actor: q.actor,
      person: q.person,
      organizationId: q.organizationId,
      from: q.from,
      to: q.to,
    });
  }
}

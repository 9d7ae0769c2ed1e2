import { DomainError } from '../domain/errors.ts';
import type { NewDestination } from '../domain/destinations/register.ts';
import type { Clock, Ids } from '../domain/ports.ts';
import { recordAudit } from './audit-store.ts';
import type { Db } from './db.ts';
import { mapPage, readPage, type Page, type PageParams } from './paging.ts';
import { assertReconciled } from './platform-state-store.ts';

/** A destination as the service reads it. The sealed account number and document never leave the store. */
export interface DestinationRow {
  id: string; organizationId: string; label: string; assetSymbol: string; bankName: string; accountKind: string;
  holderName: string; summary: string; cooldownUntil: Date; registeredInMarketAt: Date | null; createdAt: Date; updatedAt: Date;
}

const COLUMNS = [
  'id', 'organization_id', 'label', 'asset_symbol', 'bank_name', 'account_kind', 'holder_name', 'summary',
  'cooldown_until', 'registered_in_market_at', 'created_at', 'updated_at',
] as const;

type Row = {
  id: string; organization_id: string; label: string; asset_symbol: string; bank_name: string; account_kind: string;
  holder_name: string; summary: string; cooldown_until: Date; registered_in_market_at: Date | null; created_at: Date; updated_at: Date;
};
const toDestination = (r: Row): DestinationRow => ({
  id: r.id, organizationId: r.organization_id, label: r.label, assetSymbol: r.asset_symbol, bankName: r.bank_name,
  accountKind: r.account_kind, holderName: r.holder_name, summary: r.summary, cooldownUntil: r.cooldown_until,
  registeredInMarketAt: r.registered_in_market_at, createdAt: r.created_at, updatedAt: r.updated_at,
});

/** Withdrawal destinations (bank accounts) of organizations, and the operator's registration in the market. */
export class DestinationsStore {
  constructor(private readonly db: Db, private readonly ids: Ids, private readonly clock: Clock) {}

  /** 409 when the organization already registered that account: the unique (organization, fingerprint) decides, also under concurrency. */
  async register(organizationId: string, d: NewDestination): Promise<DestinationRow> {
    const at = this.clock.now();
    const row = await this.db.transaction().execute(async (tx) => {
      await assertReconciled(tx);
      const asset = await tx.selectFrom('market_assets').select('symbol').where('symbol', '=', d.assetSymbol).executeTakeFirst();
      if (!asset) throw new DomainError('market.asset_not_listed', { asset: d.assetSymbol });
      return tx.insertInto('withdrawal_destinations').values({
        id: d.id, organization_id: organizationId, label: d.label, asset_symbol: d.assetSymbol,
        bank_name: d.bankName, account_kind: d.accountKind, holder_name: d.holderName,
        // Sealed for this row (organization and id): copied to another row, they do not open.
        account_number_enc: d.accountNumberEnc, holder_document_enc: d.holderDocumentEnc,
        account_fingerprint: d.fingerprint, summary: d.summary,
        cooldown_until: d.cooldownUntil, registered_in_market_at: null, created_at: at, updated_at: at,
      }).onConflict((oc) => oc.columns(['organization_id', 'account_fingerprint']).doNothing())
        .returning(COLUMNS).executeTakeFirst();
    });
    if (!row) throw new DomainError('withdrawals.destination_already_registered');
    return toDestination(row);
  }

  /** The sealed account number and holder document of one destination, for `openDestination`; null when there is none. */
  async sealed(id: string): Promise<{ id: string; organizationId: string; accountNumberEnc: string; holderDocumentEnc: string } | null> {
    const r = await this.db.selectFrom('withdrawal_destinations').select(['organization_id', 'account_number_enc', 'holder_document_enc'])
      .where('id', '=', id).executeTakeFirst();
    return r ? { id, organizationId: r.organization_id, accountNumberEnc: r.account_number_enc, holderDocumentEnc: r.holder_document_enc } : null;
  }

  async get(id: string): Promise<DestinationRow | null> {
    const r = await this.db.selectFrom('withdrawal_destinations').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return r ? toDestination(r) : null;
  }

  /** Every destination of one organization, newest first: the client's list is one array (spec), and registrations are few. */
  async allOf(organizationId: string): Promise<DestinationRow[]> {
    const rows = await this.db.selectFrom('withdrawal_destinations').select(COLUMNS)
      .where('organization_id', '=', organizationId).orderBy('seq', 'desc').execute();
    return rows.map(toDestination);
  }

  /** Newest first, paged; one organization's, or every organization's (operator). */
  async list(p: PageParams, filter: { organizationId?: string } = {}): Promise<Page<DestinationRow>> {
    let q = this.db.selectFrom('withdrawal_destinations');
    if (filter.organizationId) q = q.where('organization_id', '=', filter.organizationId);
    return mapPage(await readPage(q, 'seq', p, (x) => x.select(COLUMNS)), toDestination);
  }

  /**
   * Records that the operator registered the destination in the market. Idempotent: the first call sets
   * the time and is audited; a repeat changes nothing and answers the same record.
   */
  async registerInMarket(actor: string, id: string): Promise<DestinationRow> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.updateTable('withdrawal_destinations').set({ registered_in_market_at: at, updated_at: at })
        .where('id', '=', id).where('registered_in_market_at', 'is', null).returning(COLUMNS).executeTakeFirst();
      if (!row) {
        const cur = await tx.selectFrom('withdrawal_destinations').select(COLUMNS).where('id', '=', id).executeTakeFirst();
        if (!cur) throw new DomainError('destinations.not_found');
        return toDestination(cur);
      }
      await recordAudit(tx, this.ids, at, {
        actor, action: 'destination.register_in_market', subjectType: 'destination', subjectId: id,
        before: { organizationId: row.organization_id, summary: row.summary, registeredInMarketAt: null },
        after: { organizationId: row.organization_id, summary: row.summary, registeredInMarketAt: at.toISOString() },
      });
      return toDestination(row);
    });
  }
}

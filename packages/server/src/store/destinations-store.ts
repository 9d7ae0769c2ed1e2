import { sql } from 'kysely';
import type { NewDestination } from '../domain/destinations/register.ts';
import type { Db } from './db.ts';
import { mapPage, readPage, type Page, type PageParams } from './paging.ts';
import type { Tx } from './unit-of-work.ts';
import type { DestinationRow, DestinationsRepository } from '../usecases/repositories.ts';

export type { DestinationRow };

const COLUMNS = [
  'id',
  'organization_id',
  'label',
  'asset_symbol',
  'bank_name',
  'account_kind',
  'holder_name',
  'summary',
  'cooldown_until',
  'registered_in_market_at',
  'created_at',
  'updated_at',
  'kind',
  'network',
  'address',
  'memo',
  'state',
] as const;

type Row = {
  id: string;
  organization_id: string;
  label: string;
  asset_symbol: string;
  bank_name: string;
  account_kind: string;
  holder_name: string;
  summary: string;
  cooldown_until: Date;
  registered_in_market_at: Date | null;
  created_at: Date;
  updated_at: Date;
  kind: string;
  network: string | null;
  address: string | null;
  memo: string | null;
  state: string;
};
const toDestination = (r: Row): DestinationRow => ({
  id: r.id,
  organizationId: r.organization_id,
  label: r.label,
  assetSymbol: r.asset_symbol,
  bankName: r.bank_name,
  accountKind: r.account_kind,
  holderName: r.holder_name,
  summary: r.summary,
  cooldownUntil: r.cooldown_until,
  registeredInMarketAt: r.registered_in_market_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  kind: r.kind === 'crypto' ? 'crypto' : 'bank',
  network: r.network,
  address: r.address,
  memo: r.memo,
  state: r.state === 'pending_approval' || r.state === 'rejected' ? r.state : 'active',
});

/** Withdrawal destinations (bank accounts and crypto addresses) of organizations, and the operator's registration in the market. */
export class DestinationsStore implements DestinationsRepository {
  constructor(private readonly db: Db) {}

  /** Whether the market lists `assetSymbol` (a destination is registered for a listed asset only). */
  async isListed(tx: Tx, assetSymbol: string): Promise<boolean> {
    return (await tx.selectFrom('market_assets').select('symbol').where('symbol', '=', assetSymbol).executeTakeFirst()) !== undefined;
  }

  /**
   * The kind of a listed asset (`fiat`, `crypto`, or null: either kind of destination), read in `tx`;
   * undefined when the market does not list it.
   */
  async listedKind(tx: Tx, assetSymbol: string): Promise<'fiat' | 'crypto' | null | undefined> {
    const r = await tx.selectFrom('market_assets').select('kind').where('symbol', '=', assetSymbol).executeTakeFirst();
    if (!r) return undefined;
    return r.kind === 'fiat' || r.kind === 'crypto' ? r.kind : null;
  }

  /**
   * Writes a new destination of `organizationId`, not yet registered in the market; null when the
   * organization already registered that account: the unique (organization, fingerprint) decides, also
   * under concurrency.
   */
  async insert(tx: Tx, organizationId: string, d: NewDestination, at: Date): Promise<DestinationRow | null> {
    const row = await tx
      .insertInto('withdrawal_destinations')
      .values({
        id: d.id,
        organization_id: organizationId,
        label: d.label,
        asset_symbol: d.assetSymbol,
        bank_name: d.bankName,
        account_kind: d.accountKind,
        holder_name: d.holderName,
        // Sealed for this row (organization and id): copied to another row, they do not open.
        account_number_enc: d.accountNumberEnc,
        holder_document_enc: d.holderDocumentEnc,
        account_fingerprint: d.fingerprint,
        summary: d.summary,
        cooldown_until: d.cooldownUntil,
        registered_in_market_at: null,
        created_at: at,
        updated_at: at,
        kind: d.kind,
        network: d.network,
        address: d.address,
        memo: d.memo,
      })
      .onConflict((oc) => oc.columns(['organization_id', 'account_fingerprint']).doNothing())
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? toDestination(row) : null;
  }

  /** The sealed account number and holder document of one destination, for `openDestination`; null when there is none. */
  async sealed(id: string): Promise<{ id: string; organizationId: string; accountNumberEnc: string; holderDocumentEnc: string } | null> {
    const r = await this.db
      .selectFrom('withdrawal_destinations')
      .select(['organization_id', 'account_number_enc', 'holder_document_enc'])
      .where('id', '=', id)
      .executeTakeFirst();
    return r
      ? { id, organizationId: r.organization_id, accountNumberEnc: r.account_number_enc, holderDocumentEnc: r.holder_document_enc }
      : null;
  }

  async get(id: string): Promise<DestinationRow | null> {
    const r = await this.db.selectFrom('withdrawal_destinations').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return r ? toDestination(r) : null;
  }

  /** Every destination of one organization, newest first: the client's list is one array (spec), and registrations are few. */
  async allOf(organizationId: string): Promise<DestinationRow[]> {
    const rows = await this.db
      .selectFrom('withdrawal_destinations')
      .select(COLUMNS)
      .where('organization_id', '=', organizationId)
      .orderBy('seq', 'desc')
      .execute();
    return rows.map(toDestination);
  }

  /** Newest first, paged; one organization's, or every organization's (operator). */
  async list(p: PageParams, filter: { organizationId?: string } = {}): Promise<Page<DestinationRow>> {
    let q = this.db.selectFrom('withdrawal_destinations');
    if (filter.organizationId) q = q.where('organization_id', '=', filter.organizationId);
    return mapPage(await readPage(q, 'seq', p, (x) => x.select(COLUMNS)), toDestination);
  }

  /** Marks the destination registered in the market at `at`, once: null when it already is, or there is none. */
  async markRegisteredInMarket(tx: Tx, id: string, at: Date): Promise<DestinationRow | null> {
    const row = await tx
      .updateTable('withdrawal_destinations')
      .set({ registered_in_market_at: at, updated_at: at })
      .where('id', '=', id)
      .where('registered_in_market_at', 'is', null)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? toDestination(row) : null;
  }

  /** The destination's state, its row locked until `tx` ends; null when there is none. */
  async lockState(tx: Tx, id: string): Promise<string | null> {
    const r = await tx.selectFrom('withdrawal_destinations').select('state').where('id', '=', id).forUpdate().executeTakeFirst();
    return r?.state ?? null;
  }

  /** A new destination that waits for the organization's members (docs/controls.md): not usable until approved. */
  async markPending(tx: Tx, id: string): Promise<void> {
    await tx.updateTable('withdrawal_destinations').set({ state: 'pending_approval' }).where('id', '=', id).execute();
  }

  /**
   * The organization's quorum approved a pending destination at `at`: active, its cooldown (as long as the
   * one it was registered with) starting now.
   */
  async activate(tx: Tx, id: string, at: Date): Promise<void> {
    await tx
      .updateTable('withdrawal_destinations')
      .set({ state: 'active', cooldown_until: sql`${at}::timestamptz + (cooldown_until - created_at)`, updated_at: at })
      .where('id', '=', id)
      .where('state', '=', 'pending_approval')
      .execute();
  }

  /**
   * A member rejected a pending destination: it stays listed as rejected, never usable, and its account
   * (or address) may be registered again.
   */
  async reject(tx: Tx, id: string, at: Date): Promise<void> {
    await tx
      .updateTable('withdrawal_destinations')
      .set({ state: 'rejected', account_fingerprint: sql`'rejected:' || id`, updated_at: at })
      .where('id', '=', id)
      .where('state', '=', 'pending_approval')
      .execute();
  }

  /** One destination, read in the caller's transaction. */
  async getIn(tx: Tx, id: string): Promise<DestinationRow | null> {
    const r = await tx.selectFrom('withdrawal_destinations').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return r ? toDestination(r) : null;
  }
}

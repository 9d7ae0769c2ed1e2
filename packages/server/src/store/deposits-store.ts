import type { Selectable } from 'kysely';
import { depositAttributionEntries, depositCreditEntries, depositUnattributedEntry } from '../domain/deposits/entries.ts';
import { DomainError } from '../domain/errors.ts';
import type { Ids } from '../domain/ports.ts';
import type { Db } from './db.ts';
import { postEntry } from './ledger-store.ts';
import { createdWithin, mapPage, readPage, type CreatedWindow, type Page, type PageParams } from './paging.ts';
import type { Database } from './schema.ts';
import type { Tx } from './unit-of-work.ts';
import type { DepositState, Deposit, DepositsRepository } from '../usecases/repositories.ts';

export type { DepositState, Deposit };

type DepositRow = Selectable<Database['deposits']>;
const toDeposit = (r: DepositRow): Deposit => ({
  id: r.id,
  organizationId: r.organization_id,
  assetSymbol: r.asset_symbol,
  assetDecimals: r.asset_decimals,
  network: r.network,
  amount: BigInt(r.amount_minor),
  txid: r.txid,
  state: r.state as DepositState,
  declarationId: r.declaration_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Money that arrived at the platform's wallets: recorded once per txid, credited once. */
export class DepositsStore implements DepositsRepository {
  constructor(
    private readonly db: Db,
    private readonly ids: Ids,
  ) {}

  /**
   * Records an arrival in the caller's transaction. It is credited only when its amount equals exactly the
   * expected amount of an open, unexpired declaration of the same asset and network (spec: the tail is
   * the whole recognition mechanism); anything else waits in the platform's `unattributed` account.
   * The network is never a reason to refuse: money that arrived is recorded (docs/operator-guide.md, "otherwise it
   * waits, unattributed"). It is compared with the declaration's network, the one the client was told,
   * not the wallet's current one, so a wallet that moves to another network strands no open declaration.
   */
  /** `unmatchable`: the arrival waits unattributed whatever its amount (the venue reported more decimals than the asset has). */
  async recordArrival(
    tx: Tx,
    id: string,
    at: Date,
    r: { assetSymbol: string; network: string; amount: bigint; txid: string; unmatchable?: boolean; reference?: string },
  ): Promise<Deposit> {
    // FOR SHARE: the decimals stored with the arrival cannot change under it (MarketAssetsStore.put).
    const asset = await tx.selectFrom('market_assets').select('decimals').where('symbol', '=', r.assetSymbol).forShare().executeTakeFirst();
    if (!asset) throw new DomainError('market.asset_not_listed', { asset: r.assetSymbol });

    // The txid is recorded once: the unique constraint decides, even between concurrent calls.
    const inserted = await tx
      .insertInto('deposits')
      .values({
        id,
        organization_id: null,
        asset_symbol: r.assetSymbol,
        asset_decimals: asset.decimals,
        network: r.network,
        amount_minor: r.amount.toString(),
        txid: r.txid,
        state: 'unattributed',
        declaration_id: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('txid').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!inserted) throw new DomainError('deposits.txid_already_recorded');

    // At most one row can match (declarations_unique_open_amount); FOR UPDATE makes a second
    // arrival of the same amount wait, then find the declaration matched and stay unattributed.
    const decl = r.unmatchable
      ? undefined
      : await tx
          .selectFrom('deposit_declarations')
          .select(['id', 'organization_id'])
          .where('asset_symbol', '=', r.assetSymbol)
          .where('state', '=', 'open')
          .where('expected_amount_minor', '=', r.amount.toString())
          .where('network', '=', r.network)
          .where('expires_at', '>', at)
          // The reference the client quoted, when the desk gives it: amount and reference together.
          .$if(r.reference !== undefined, (q) => q.where('reference', '=', r.reference!))
          .forUpdate()
          .executeTakeFirst();

    let row = inserted;
    if (decl) {
      await tx
        .updateTable('deposit_declarations')
        .set({ state: 'matched', deposit_id: id, updated_at: at })
        .where('id', '=', decl.id)
        .execute();
      row = await tx
        .updateTable('deposits')
        .set({ state: 'credited', organization_id: decl.organization_id, declaration_id: decl.id })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const entries = depositCreditEntries({
        organizationId: decl.organization_id,
        assetSymbol: r.assetSymbol,
        amount: r.amount,
        depositId: id,
      });
      for (const e of entries) await postEntry(tx, this.ids.next('je'), e, at);
    } else {
      await postEntry(
        tx,
        this.ids.next('je'),
        depositUnattributedEntry({ assetSymbol: r.assetSymbol, amount: r.amount, depositId: id }),
        at,
      );
    }
    return toDeposit(row);
  }

  /** Credits an unattributed arrival in the caller's transaction, once: the guarded UPDATE lets one caller win. */
  /** An arrival still unattributed, its row locked until `tx` ends; refused when attributed already or unknown. */
  async unattributedIn(tx: Tx, id: string): Promise<Deposit> {
    const row = await tx.selectFrom('deposits').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) throw new DomainError('deposits.not_found');
    if (row.state !== 'unattributed') throw new DomainError('deposits.already_attributed');
    return toDeposit(row);
  }

  async attribute(tx: Tx, id: string, at: Date, organizationId: string): Promise<Deposit> {
    const org = await tx.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst();
    if (!org) throw new DomainError('organizations.not_found');
    const row = await tx
      .updateTable('deposits')
      .set({ state: 'credited', organization_id: organizationId, updated_at: at })
      .where('id', '=', id)
      .where('state', '=', 'unattributed')
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const exists = await tx.selectFrom('deposits').select('id').where('id', '=', id).executeTakeFirst();
      throw new DomainError(exists ? 'deposits.already_attributed' : 'deposits.not_found');
    }
    const dep = toDeposit(row);
    const entries = depositAttributionEntries({ organizationId, assetSymbol: dep.assetSymbol, amount: dep.amount, depositId: id });
    for (const e of entries) await postEntry(tx, this.ids.next('je'), e, at);
    return dep;
  }

  async recordedTxids(txids: string[]): Promise<Set<string>> {
    return new Set((await this.db.selectFrom('deposits').select('txid').where('txid', 'in', txids).execute()).map((r) => r.txid));
  }

  async get(id: string): Promise<Deposit | null> {
    const r = await this.db.selectFrom('deposits').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toDeposit(r) : null;
  }

  /** Newest first; `organizationId` limits to one organization's deposits, `state` to one state. */
  async list(
    p: PageParams,
    filter: { organizationId?: string; state?: DepositState | undefined } & CreatedWindow = {},
  ): Promise<Page<Deposit>> {
    let q = createdWithin(this.db.selectFrom('deposits'), 'created_at', filter);
    if (filter.organizationId !== undefined) q = q.where('organization_id', '=', filter.organizationId);
    if (filter.state !== undefined) q = q.where('state', '=', filter.state);
    return mapPage(await readPage(q, 'seq', p, (x) => x.selectAll()), toDeposit);
  }
}

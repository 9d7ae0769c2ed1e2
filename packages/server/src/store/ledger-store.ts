import { sql, type Transaction } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { assertBalanced, isOrgAccount, netChanges, type Entry } from '../domain/ledger/entry.ts';
import type { Database } from './schema.ts';

type Tx = Transaction<Database>;

/**
 * Writes one balanced entry inside the caller's transaction: the journal row, its postings, and the
 * balances. The CHECK constraint on accounts is the last guard: an organization account that would go
 * below zero aborts the whole transaction, which is reported as insufficient balance.
 */
export async function postEntry(tx: Tx, entryId: string, entry: Entry, at: Date): Promise<void> {
  assertBalanced(entry);
  const changes = netChanges(entry).filter((c) => c.amount !== 0n);
  // Org accounts that go down are checked by the UPDATE's guard, so a refusal is a clean domain error.
  for (const c of changes) {
    if (isOrgAccount(c.kind) && c.amount < 0n) {
      const r = await tx.updateTable('accounts')
        .set({ balance: sql`balance + ${c.amount.toString()}::numeric` })
        .where('owner_id', '=', c.ownerId).where('asset_symbol', '=', c.assetSymbol).where('kind', '=', c.kind)
        .where(sql<boolean>`balance + ${c.amount.toString()}::numeric >= 0`)
        .executeTakeFirst();
      if (r.numUpdatedRows === 0n) throw new DomainError('ledger.insufficient_balance');
    } else {
      await tx.insertInto('accounts')
        .values({ owner_id: c.ownerId, asset_symbol: c.assetSymbol, kind: c.kind, balance: c.amount.toString() })
        .onConflict((oc) => oc.columns(['owner_id', 'asset_symbol', 'kind']).doUpdateSet({ balance: sql`accounts.balance + excluded.balance` }))
        .execute();
    }
  }
  await tx.insertInto('journal_entries').values({
    id: entryId, kind: entry.kind, organization_id: entry.organizationId,
    reference_id: entry.referenceId, memo: entry.memo, created_at: at,
  }).execute();
  await tx.insertInto('postings').values(entry.postings.map((p) => ({
    entry_id: entryId, owner_id: p.ownerId, asset_symbol: p.assetSymbol, account_kind: p.kind,
    amount: p.amount.toString(), created_at: at,
  }))).execute();
}

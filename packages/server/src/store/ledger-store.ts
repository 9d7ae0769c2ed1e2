import { sql, type RawBuilder, type Transaction } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { assertBalanced, isOrgAccount, netChanges, type Entry, type Posting } from '../domain/ledger/entry.ts';
import type { LedgerRepository, Tx as OpaqueTx } from '../usecases/repositories.ts';
import type { Database } from './schema.ts';
import { kyselyOf } from './unit-of-work.ts';

type Tx = Transaction<Database>;
type Sql = RawBuilder<unknown>;

/**
 * Writes one balanced entry inside the caller's transaction, in one statement (one round trip): the
 * balance changes, the journal row and its postings. Refused as insufficient balance (the caller's
 * transaction rolls back) when an organization account cannot back its change.
 */
export async function postEntry(tx: Tx, entryId: string, entry: Entry, at: Date): Promise<void> {
  assertBalanced(entry);
  const r = await sql<{
    written: string;
  }>`with ${sql.join(entryCtes(entryId, entry, at))} select (select count(*) from je) as written`.execute(tx);
  if (String(r.rows[0]?.written) !== '1') throw new DomainError('ledger.insufficient_balance');
}

/**
 * The CTEs that write an entry; the last one, `je`, returns the journal row's id when the entry was
 * written and nothing when an organization account could not back it.
 *
 * The balance changes are a chain, each link reading the one before, so rows are locked one after
 * the other in `netChanges`' order (the same order in every transaction: no deadlock between two
 * entries). A change to an organization account that goes down is a guarded UPDATE: when it cannot
 * back the change it returns no row, and every later link, the journal row and the postings see
 * nothing. The CHECK constraint on accounts is the last guard. Everything else is an upsert.
 */
function entryCtes(entryId: string, entry: Entry, at: Date): Sql[] {
  const changes = netChanges(entry).filter((c) => c.amount !== 0n);
  const value = (amount: bigint) => sql`${amount.toString()}::numeric`;
  const asset = (literal: string) => sql`${literal}::text`;
  const links = changes.map(
    (c, i) => sql`${sql.raw(`c${i}`)} as (${changeSql(c, asset(c.assetSymbol), value(c.amount), i === 0 ? null : `c${i - 1}`)})`,
  );
  const last = changes.length > 0 ? `c${changes.length - 1}` : null;
  const ts = sql`${at.toISOString()}::timestamptz`;
  const postings = sql.join(
    entry.postings.map((p) => sql`(${p.ownerId}::text, ${asset(p.assetSymbol)}, ${p.kind}::text, ${value(p.amount)})`),
  );
  return [
    ...links,
    sql`je as (insert into journal_entries (id, kind, organization_id, reference_id, memo, created_at)
      select ${entryId}::text, ${entry.kind}::text, ${entry.organizationId}::text, ${entry.referenceId}::text, ${entry.memo}::text, ${ts}${last ? sql.raw(` from ${last}`) : sql``}
      returning id)`,
    sql`p as (insert into postings (entry_id, owner_id, asset_symbol, account_kind, amount, created_at, entry_kind, reference_id, memo)
      select je.id, v.o, v.a, v.k, v.amt, ${ts}, ${entry.kind}::text, ${entry.referenceId}::text, ${entry.memo}::text
      from je cross join (values ${postings}) as v(o, a, k, amt)
      returning 1)`,
  ];
}

/** One link of the chain: runs only if the previous link produced its row. */
function changeSql(c: Posting, asset: Sql, amount: Sql, prev: string | null): Sql {
  const from = prev === null ? sql`` : sql.raw(` from ${prev}`);
  if (isOrgAccount(c.kind) && c.amount < 0n) {
    return sql`update accounts set balance = balance + ${amount}${from}
      where owner_id = ${c.ownerId}::text and asset_symbol = ${asset} and kind = ${c.kind}::text and balance + ${amount} >= 0
      returning 1 as ok`;
  }
  return sql`insert into accounts (owner_id, asset_symbol, kind, balance)
    select ${c.ownerId}::text, ${asset}, ${c.kind}::text, ${amount}${from}
    on conflict (owner_id, asset_symbol, kind) do update set balance = accounts.balance + excluded.balance
    returning 1 as ok`;
}

/** The ledger port (usecases/repositories.ts) over postEntry. */
export class LedgerStore implements LedgerRepository {
  post(tx: OpaqueTx, entryId: string, entry: Entry, at: Date): Promise<void> {
    return postEntry(kyselyOf(tx), entryId, entry, at);
  }
}

import type { Transaction } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { holdEntry, releaseEntry } from '../domain/ledger/entries.ts';
import type { Ids } from '../domain/ports.ts';
import { postEntry } from './ledger-store.ts';
import type { Database } from './schema.ts';
import type { HoldRow, HoldsRepository, Tx as OpaqueTx } from '../usecases/repositories.ts';
import { kyselyOf } from './unit-of-work.ts';

export type { HoldRow };

type Tx = Transaction<Database>;

/**
 * Takes a hold inside the caller's transaction (the one that writes the request): available → held.
 * The hold row and the request (`writeRequest`) are written first and the balance moves last, so the
 * organization's balance row stays locked only from that statement to COMMIT: a hot balance serves
 * one request per round trip instead of one per transaction.
 * Throws ledger.insufficient_balance when the available balance cannot back it.
 */
export async function takeHold<T>(
  tx: Tx,
  ids: Ids,
  at: Date,
  r: {
    organizationId: string;
    assetSymbol: string;
    amount: bigint;
    kind: 'order_hold' | 'withdrawal_hold';
    referenceId: string;
  },
  writeRequest: (holdId: string) => Promise<T>,
): Promise<T> {
  const holdId = ids.next('hld');
  await tx
    .insertInto('holds')
    .values({
      id: holdId,
      organization_id: r.organizationId,
      asset_symbol: r.assetSymbol,
      amount: r.amount.toString(),
      state: 'active',
      created_at: at,
      updated_at: at,
    })
    .execute();
  const written = await writeRequest(holdId);
  await postEntry(tx, ids.next('je'), holdEntry(r.kind, r), at);
  return written;
}

/** Marks an active hold captured or released exactly once; a second call finds no active hold. */
async function closeHold(tx: Tx, holdId: string, state: 'captured' | 'released', at: Date): Promise<HoldRow> {
  const h = await tx
    .updateTable('holds')
    .set({ state, updated_at: at })
    .where('id', '=', holdId)
    .where('state', '=', 'active')
    .returning(['id', 'organization_id', 'asset_symbol', 'amount'])
    .executeTakeFirst();
  if (!h) throw new DomainError('internal.unexpected');
  return { id: h.id, organizationId: h.organization_id, assetSymbol: h.asset_symbol, amount: BigInt(h.amount) };
}

/** held → available, for a rejected or failed request. */
export async function releaseHold(
  tx: Tx,
  ids: Ids,
  at: Date,
  holdId: string,
  kind: 'order_release' | 'withdrawal_release',
  referenceId: string,
): Promise<HoldRow> {
  const h = await closeHold(tx, holdId, 'released', at);
  await postEntry(tx, ids.next('je'), releaseEntry(kind, { ...h, referenceId }), at);
  return h;
}

/** Marks the hold captured; the caller posts the settlement entry that takes the amount out of `held`. */
export async function captureHold(tx: Tx, holdId: string, at: Date): Promise<HoldRow> {
  return closeHold(tx, holdId, 'captured', at);
}

/** The holds port (usecases/repositories.ts) over the functions above. */
export class HoldsStore implements HoldsRepository {
  take<T>(tx: OpaqueTx, ids: Ids, at: Date, r: Parameters<typeof takeHold>[3], writeRequest: (holdId: string) => Promise<T>): Promise<T> {
    return takeHold(kyselyOf(tx), ids, at, r, writeRequest);
  }
  release(
    tx: OpaqueTx,
    ids: Ids,
    at: Date,
    holdId: string,
    kind: 'order_release' | 'withdrawal_release',
    referenceId: string,
  ): Promise<HoldRow> {
    return releaseHold(kyselyOf(tx), ids, at, holdId, kind, referenceId);
  }
  capture(tx: OpaqueTx, holdId: string, at: Date): Promise<HoldRow> {
    return captureHold(kyselyOf(tx), holdId, at);
  }
}

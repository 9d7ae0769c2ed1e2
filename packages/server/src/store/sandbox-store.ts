import { sql } from 'kysely';
import type { Db } from './db.ts';
import type { MagicPending, SandboxRepository } from '../usecases/repositories.ts';

/**
 * What the sandbox has to decide by itself (docs/sandbox.md): requests still pending whose amount ends in
 * a magic figure, oldest first. The predicates are those of migration 050's partial indexes, word for word,
 * so each read touches only such rows.
 */
export class SandboxStore implements SandboxRepository {
  constructor(private readonly db: Db) {}

  async magicPending(limit: number): Promise<MagicPending> {
    const orders = await this.db
      .selectFrom('orders')
      .select(['id', 'organization_id', 'amount_base_minor'])
      .where(sql<boolean>`state = 'pending_approval' and mod(amount_base_minor, 10000) in (1111, 2222, 3333)`)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    const withdrawals = await this.db
      .selectFrom('withdrawals')
      .select(['id', 'organization_id', 'amount_minor'])
      .where(sql<boolean>`state = 'pending_approval' and mod(amount_minor, 10000) in (1111, 2222, 3333)`)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    const declarations = await this.db
      .selectFrom('deposit_declarations')
      .select(['id', 'organization_id', 'asset_symbol', 'network', 'expected_amount_minor'])
      .where(sql<boolean>`state = 'open' and (mod(expected_amount_minor, 10000) = 1111 or mod(declared_amount_minor, 10000) = 1111)`)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return {
      orders: orders.map((o) => ({ id: o.id, organizationId: o.organization_id, amount: BigInt(o.amount_base_minor) })),
      withdrawals: withdrawals.map((w) => ({ id: w.id, organizationId: w.organization_id, amount: BigInt(w.amount_minor) })),
      declarations: declarations.map((d) => ({
        id: d.id,
        organizationId: d.organization_id,
        assetSymbol: d.asset_symbol,
        network: d.network,
        expectedAmount: BigInt(d.expected_amount_minor),
      })),
    };
  }
}

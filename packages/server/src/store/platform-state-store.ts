import type { Db } from './db.ts';

/** Whether the platform's books agree with the market (CONTRACT §3, reconciliation). */
export class PlatformStateStore {
  constructor(private readonly db: Db) {}
  async isReconciled(): Promise<boolean> {
    const r = await this.db.selectFrom('platform_state').select('reconciled').where('id', '=', 1).executeTakeFirst();
    return r?.reconciled ?? true;
  }
}

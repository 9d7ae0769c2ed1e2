import type { Db } from './db.ts';
import type { SettingsRepository } from '../usecases/repositories.ts';

export class SettingsStore implements SettingsRepository {
  constructor(private readonly db: Db) {}
  async get(key: string): Promise<string | null> {
    const r = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return r?.value ?? null;
  }
  /** Sets the value only when the key is absent; returns the value that is stored (first writer wins). */
  async setIfAbsent(key: string, value: string): Promise<string> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await this.get(key))!;
  }
  /** Replaces the value only when it is still `expected` (a claim handed over once); whether it did. */
  async replace(key: string, expected: string, value: string): Promise<boolean> {
    const r = await this.db.updateTable('settings').set({ value }).where('key', '=', key).where('value', '=', expected).executeTakeFirst();
    return r.numUpdatedRows === 1n;
  }
  async set(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}

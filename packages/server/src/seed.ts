import { randomUUID } from 'node:crypto';
import type { AppDeps } from './deps.ts';
import { generateApiKey, hashSecret } from './domain/keys/api-key.ts';
import { runDemoSteps } from './demo-steps.ts';
import type { Store } from './store/index.ts';
import { adjustBalance } from './usecases/ledger/adjust.ts';

export interface DemoSeed { organizationId: string; memberId: string; apiKey: string }

const ACTOR = 'system:seed';
const CLAIM = 'demo_seeded';
const ORG_NAME = 'Demo Treasury';
const EMAIL = 'demo@cambio.example';
const FUNDING: Array<[symbol: string, decimals: number, amount: bigint]> = [['USD', 2, 1_000_000_00n], ['BTC', 8, 2_50000000n]];
/** On PostgreSQL, a claim this old with no `done` is a start that died seeding (a seed takes well under a second). */
export const SEED_TAKEOVER_MS = 60_000;

/**
 * Sandbox demo on an empty store: an active organization with limits, a member with every
 * permission, a full-scope key, and balances in two assets with different decimals, plus the demo
 * steps of the other capabilities (demo-steps.ts). The key is shown through `show`, once.
 *
 * Crash-safe: the `demo_seeded` setting is claimed as `seeding:<id>:<time>` and becomes `done:<org>`
 * only after the key was shown. A start that finds an unfinished claim (its own store on PGlite, where
 * the directory lock makes it the only process; on PostgreSQL one older than SEED_TAKEOVER_MS) takes it
 * over and finishes the seed: every step finds what an earlier attempt made (assets, organization,
 * member, funding up to the target, upserted extras) and a new key is issued and shown. A key issued by
 * the dead attempt was never shown and is revoked. Two instances starting together seed one demo.
 */
export async function seedDemo(deps: AppDeps, show: (demo: DemoSeed) => void, opts: { takeoverAfterMs?: number } = {}): Promise<DemoSeed | null> {
  const { store, config, secret } = deps;
  const claim = await claimSeed(store, opts.takeoverAfterMs ?? (store.kind === 'pglite' ? 0 : SEED_TAKEOVER_MS));
  if (claim === null) return null;

  for (const [symbol, decimals] of FUNDING) await store.marketAssets.put(ACTOR, symbol, decimals);
  const organizationId = (await store.db.selectFrom('organizations').select('id').where('name', '=', ORG_NAME).orderBy('created_at').executeTakeFirst())?.id
    ?? (await store.organizations.create(ACTOR, { name: ORG_NAME, status: 'active', limits: {} })).id;
  const memberId = (await store.db.selectFrom('members').select('id').where('organization_id', '=', organizationId).where('email', '=', EMAIL).executeTakeFirst())?.id
    ?? (await store.organizations.addMember(ACTOR, organizationId, {
      name: 'Demo Admin', email: EMAIL,
      permissions: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw', 'portal:api_keys'],
    })).id;
  // Keys an earlier attempt issued were never shown: nobody can hold them, and none stays valid.
  const unseen = await store.db.selectFrom('api_keys').select('id').where('member_id', '=', memberId).where('revoked_at', 'is', null).execute();
  for (const k of unseen) await store.keys.revoke(ACTOR, k.id);
  const g = generateApiKey(config.keyTag);
  await store.keys.issue(ACTOR, {
    memberId, prefix: g.prefix, secretHash: hashSecret(secret, g.secret),
    scopes: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'], expiresAt: null, allowedIps: null,
  });
  // Funded up to the target, so a retry after a crash between the two adjustments never pays twice.
  const balances = await store.accounts.balances(organizationId);
  for (const [symbol, , target] of FUNDING) {
    const have = balances.find((b) => b.assetSymbol === symbol)?.available ?? 0n;
    if (have < target) await adjustBalance(deps, ACTOR, { organizationId, assetSymbol: symbol, amount: target - have, reason: 'sandbox demo funding' });
  }
  const demo = { organizationId, memberId, apiKey: g.key };
  await runDemoSteps(deps, demo);
  show(demo);
  await store.db.updateTable('settings').set({ value: `done:${organizationId}` }).where('key', '=', CLAIM).where('value', '=', claim).execute();
  return demo;
}

/** Claims the seed; the claim's value, or null when it is done or another instance is seeding now. */
async function claimSeed(store: Store, takeoverAfterMs: number): Promise<string | null> {
  const mine = `seeding:${randomUUID()}:${Date.now()}`;
  const stored = await store.settings.setIfAbsent(CLAIM, mine);
  if (stored === mine) return mine;
  // Anything else (`done:…`, or `claimed:…` written by versions that set the claim only once) is a finished seed.
  const m = /^seeding:[^:]+:([0-9]+)$/.exec(stored);
  if (!m || Date.now() - Number(m[1]) < takeoverAfterMs) return null;
  const r = await store.db.updateTable('settings').set({ value: mine }).where('key', '=', CLAIM).where('value', '=', stored).executeTakeFirst();
  return r.numUpdatedRows === 1n ? mine : null;
}

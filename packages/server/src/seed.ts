import type { Config } from './config.ts';
import { generateApiKey, hashSecret } from './domain/keys/api-key.ts';
import type { Store } from './store/index.ts';

export interface DemoSeed { organizationId: string; memberId: string; apiKey: string }

const ACTOR = 'system:seed';

/**
 * Sandbox demo on an empty store: an active organization with limits, a member with every
 * permission, a full-scope key, and balances in two assets with different decimals. Runs once: the
 * `demo_seeded` setting is claimed first, so two instances starting together seed one demo.
 */
export async function seedDemo(store: Store, config: Config, secret: string): Promise<DemoSeed | null> {
  const claim = `claimed:${process.pid}:${Date.now()}`;
  if ((await store.settings.setIfAbsent('demo_seeded', claim)) !== claim) return null;

  await store.marketAssets.put(ACTOR, 'USD', 2);
  await store.marketAssets.put(ACTOR, 'BTC', 8);
  const org = await store.organizations.create(ACTOR, { name: 'Demo Treasury', status: 'active', limits: {} });
  const member = await store.organizations.addMember(ACTOR, org.id, {
    name: 'Demo Admin', email: 'demo@cambio.example',
    permissions: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw', 'portal:api_keys'],
  });
  const g = generateApiKey(config.keyTag);
  await store.keys.issue(ACTOR, {
    memberId: member.id, prefix: g.prefix, secretHash: hashSecret(secret, g.secret),
    scopes: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'], expiresAt: null, allowedIps: null,
  });
  await store.accounts.adjust(ACTOR, { organizationId: org.id, assetSymbol: 'USD', amount: 1_000_000_00n, reason: 'sandbox demo funding' });
  await store.accounts.adjust(ACTOR, { organizationId: org.id, assetSymbol: 'BTC', amount: 2_50000000n, reason: 'sandbox demo funding' });
  return { organizationId: org.id, memberId: member.id, apiKey: g.key };
}

import { randomUUID } from 'node:crypto';
import type { AppDeps } from './deps.ts';
import { generateApiKey, hashSecret } from './domain/keys/api-key.ts';
import { emailSalt, hashPassword } from './domain/people/password.ts';
import { newGeneratedPassword } from './domain/people/tokens.ts';
import type { DemoSeed } from './demo-seed.ts';
import { runDemoSteps } from './demo-steps.ts';
import type { Store } from './store/index.ts';
import { issueKey } from './usecases/keys/issue-key.ts';
import { revokeKey } from './usecases/keys/revoke-key.ts';
import { addMember } from './usecases/members/add-member.ts';
import { createOrganization } from './usecases/organizations/create-organization.ts';
import { applyAdjustment } from './usecases/ledger/adjust.ts';
import { putAsset } from './usecases/market/put-asset.ts';
import { setInitialPassword } from './usecases/people/set-initial-password.ts';
import { createStaff } from './usecases/staff/create-staff.ts';

export type { DemoSeed };

const ACTOR = 'system:seed';
const CLAIM = 'demo_seeded';
const ORG_NAME = 'Demo Treasury';
const EMAIL = 'demo@cambio.example';
const OPERATOR_EMAIL = 'operator@cambio.example';
const FUNDING: Array<[symbol: string, decimals: number, amount: bigint, kind: 'fiat' | 'crypto']> = [
  ['USD', 2, 1_000_000_00n, 'fiat'],
  ['BTC', 8, 2_50000000n, 'crypto'],
];
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
export async function seedDemo(
  deps: AppDeps,
  show: (demo: DemoSeed) => void,
  opts: { takeoverAfterMs?: number } = {},
): Promise<DemoSeed | null> {
  const { store, config, secret } = deps;
  const claim = await claimSeed(store, opts.takeoverAfterMs ?? (store.ownedByOneProcess ? 0 : SEED_TAKEOVER_MS));
  if (claim === null) return null;

  for (const [symbol, decimals, , kind] of FUNDING) await putAsset(deps, ACTOR, symbol, decimals, kind);
  const organizationId =
    (await store.organizations.firstNamed(ORG_NAME))?.id ??
    (await createOrganization(deps, ACTOR, { name: ORG_NAME, status: 'active', limits: {} })).id;
  const memberId =
    (await store.members.team(organizationId)).find((m) => m.email === EMAIL)?.id ??
    (
      await addMember(deps, ACTOR, organizationId, {
        name: 'Demo Admin',
        email: EMAIL,
        permissions: [
          'portal:read',
          'portal:trade',
          'portal:deposit',
          'portal:destinations',
          'portal:withdraw',
          'portal:webhooks',
          'portal:api_keys',
          'portal:team',
        ],
      })
    ).id;
  // Keys an earlier attempt issued were never shown: nobody can hold them, and none stays valid.
  const unseen = (await store.members.keys(organizationId)).filter((k) => k.issuedBy.id === memberId && k.revokedAt === null);
  for (const k of unseen) await revokeKey(deps, ACTOR, k.id);
  const g = generateApiKey(config.keyTag);
  await issueKey(deps, ACTOR, {
    memberId,
    prefix: g.prefix,
    secretHash: hashSecret(secret, g.secret),
    // Every API scope of the demo walkthrough, webhooks included (docs/api-guide.md: Webhooks uses this $KEY).
    scopes: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw', 'portal:webhooks'],
    expiresAt: null,
    allowedIps: null,
  });
  // Funded up to the target, so a retry after a crash between the two adjustments never pays twice.
  const balances = await store.accounts.balances(organizationId);
  for (const [symbol, , target] of FUNDING) {
    const have = balances.find((b) => b.assetSymbol === symbol)?.available ?? 0n;
    // The platform funds its own demo at first start: no person decides it, so no operator rule applies.
    if (have < target)
      await deps.store.uow.run((tx) =>
        applyAdjustment(deps, tx, deps.clock.now(), ACTOR, {
          organizationId,
          assetSymbol: symbol,
          amount: target - have,
          reason: 'sandbox demo funding',
        }),
      );
  }
  // Sign-ins: a fresh password each attempt (an earlier attempt's was never shown). The admin has no TOTP yet:
  // the desk asks for it before the first decision.
  const memberPassword = newGeneratedPassword();
  await setInitialPassword(deps, ACTOR, 'member', memberId, await hashPassword(memberPassword, emailSalt(secret, 'member', EMAIL)));
  const operatorPassword = newGeneratedPassword();
  const adminId =
    (await store.staff.list()).find((s) => s.email === OPERATOR_EMAIL)?.id ??
    (
      await createStaff(
        deps,
        ACTOR,
        { name: 'Operator Admin', email: OPERATOR_EMAIL, role: 'admin' },
        { passwordHash: await hashPassword(operatorPassword, emailSalt(secret, 'staff', OPERATOR_EMAIL)) },
      )
    ).id;
  await setInitialPassword(deps, ACTOR, 'staff', adminId, await hashPassword(operatorPassword, emailSalt(secret, 'staff', OPERATOR_EMAIL)));
  const demo = {
    organizationId,
    memberId,
    apiKey: g.key,
    memberSignIn: { email: EMAIL, password: memberPassword },
    operatorSignIn: { email: OPERATOR_EMAIL, password: operatorPassword },
  };
  await runDemoSteps(deps, demo);
  show(demo);
  await store.settings.replace(CLAIM, claim, `done:${organizationId}`);
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
  return (await store.settings.replace(CLAIM, stored, mine)) ? mine : null;
}

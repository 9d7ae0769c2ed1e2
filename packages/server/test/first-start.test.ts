import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resolveSecrets } from '../src/bootstrap.ts';
import { hashOperatorToken } from '../src/http/plugins/operator-auth.ts';
import { SEED_TAKEOVER_MS, seedDemo, type DemoSeed } from '../src/seed.ts';
import { backends, makeHarness, type Harness } from './harness.ts';

const root = new URL('../../../', import.meta.url).pathname;

async function clientOf(h: Harness, key: string) {
  return (await h.app.inject({ method: 'GET', url: '/api/v1/client', headers: { 'x-api-key': key } })).json();
}

for (const backend of backends()) {
  describe(`the demo seed survives a crash half-way [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
    });
    after(async () => h?.close());

    test('a seed that died after its claim is finished by the next start: one key shown, funded once, then done', async () => {
      const shown: DemoSeed[] = [];
      // the first attempt dies between the two funding adjustments
      const adjust = h.store.accounts.adjust.bind(h.store.accounts);
      let calls = 0;
      h.store.accounts.adjust = async (...a) => {
        if (++calls === 2) throw new Error('killed');
        return adjust(...a);
      };
      await assert.rejects(
        seedDemo(h.deps, (d) => shown.push(d), { takeoverAfterMs: 0 }),
        /killed/,
      );
      h.store.accounts.adjust = adjust;
      assert.equal(shown.length, 0, 'nothing was shown');
      assert.match((await h.store.settings.get('demo_seeded'))!, /^seeding:/);

      // the next start (on PGlite at once: the directory lock makes it the only process)
      const demo = await seedDemo(h.deps, (d) => shown.push(d), { takeoverAfterMs: 0 });
      assert.ok(demo);
      assert.deepEqual(shown, [demo]);
      const c = await clientOf(h, demo.apiKey);
      assert.equal(c.data.name, 'Demo Treasury');
      assert.equal(c.data.canOperate, true);
      const balances = await h.store.accounts.balances(demo.organizationId);
      assert.deepEqual(
        balances.map((b) => [b.assetSymbol, b.available]),
        [
          ['BTC', 2_50000000n],
          ['USD', 1_000_000_00n],
        ],
        'funded exactly once',
      );
      const orgs = await h.store.db.selectFrom('organizations').select('id').where('name', '=', 'Demo Treasury').execute();
      assert.equal(orgs.length, 1, 'one demo organization');
      const live = await h.store.db
        .selectFrom('api_keys')
        .select('id')
        .where('member_id', '=', demo.memberId)
        .where('revoked_at', 'is', null)
        .execute();
      assert.equal(live.length, 1, 'the key of the dead attempt, never shown, is revoked');
      assert.equal(await h.store.settings.get('demo_seeded'), `done:${demo.organizationId}`);
      // the pair and wallets of the demo steps are there
      assert.ok(await h.store.marketPairs.get('BTC', 'USD'));
      // the sign-ins shown work: the demo member's in the portal, the first admin's at the desk (TOTP not yet enrolled)
      const signIn = (path: string, b: { email: string; password: string }) =>
        h.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(b) });
      const m = await signIn('/portal/v1/session', demo.memberSignIn);
      assert.equal(m.statusCode, 200, m.body);
      assert.deepEqual([m.json().data.member.email, m.json().data.organization.id], ['demo@cambio.example', demo.organizationId]);
      const s = await signIn('/operator/v1/session', demo.operatorSignIn);
      assert.equal(s.statusCode, 200, s.body);
      assert.deepEqual([s.json().data.staff.role, s.json().data.staff.totpEnrolled], ['admin', false]);

      assert.equal(await seedDemo(h.deps, (d) => shown.push(d)), null, 'a later start seeds nothing');
      assert.equal(shown.length, 1);
    });
  });
}

describe('the demo seed between instances', () => {
  test('a fresh unfinished claim is another instance seeding now: left alone until it is stale', async () => {
    const h = await makeHarness();
    try {
      await h.store.settings.set('demo_seeded', `seeding:other:${Date.now()}`);
      assert.equal(await seedDemo(h.deps, () => {}, { takeoverAfterMs: 60_000 }), null);
      assert.ok(await seedDemo(h.deps, () => {}, { takeoverAfterMs: 0 }));
    } finally {
      await h.close();
    }
  });

  test('a claim written by an earlier version (claimed:…) is a finished seed', async () => {
    const h = await makeHarness();
    try {
      await h.store.settings.set('demo_seeded', 'claimed:123:1700000000000');
      assert.equal(await seedDemo(h.deps, () => {}, { takeoverAfterMs: 0 }), null);
    } finally {
      await h.close();
    }
  });

  test('two instances starting at once seed one demo', async () => {
    const h = await makeHarness({ backend: backends().at(-1)! });
    try {
      const shown: DemoSeed[] = [];
      const start = () => seedDemo(h.deps, (d) => shown.push(d), { takeoverAfterMs: SEED_TAKEOVER_MS });
      const r = await Promise.all([start(), start()]);
      assert.equal(r.filter((x) => x !== null).length, 1);
      assert.equal(shown.length, 1);
    } finally {
      await h.close();
    }
  });
});

describe('the generated operator token', () => {
  test('is shown before it is stored, and never again', async () => {
    const h = await makeHarness();
    try {
      const config = { ...h.config, operatorToken: undefined };
      const seen: string[] = [];
      const setIfAbsent = h.store.settings.setIfAbsent.bind(h.store.settings);
      h.store.settings.setIfAbsent = async (k, v) => {
        if (k === 'operator_token_hash') assert.equal(seen.length, 1, 'shown before it is stored');
        return setIfAbsent(k, v);
      };
      const s1 = await resolveSecrets(h.store, config, { generated: (t) => seen.push(t), notUsed: () => assert.fail('used') });
      assert.equal(s1.operatorTokenHash, hashOperatorToken(seen[0]!));
      const s2 = await resolveSecrets(h.store, config, { generated: (t) => seen.push(t), notUsed: () => {} });
      assert.equal(s2.operatorTokenHash, s1.operatorTokenHash);
      assert.equal(seen.length, 1, 'a restart prints nothing');
    } finally {
      await h.close();
    }
  });

  test('a start that died before storing it leaves no token: the next start shows a new one', async () => {
    const h = await makeHarness();
    try {
      const config = { ...h.config, operatorToken: undefined };
      const seen: string[] = [];
      const setIfAbsent = h.store.settings.setIfAbsent.bind(h.store.settings);
      h.store.settings.setIfAbsent = async (k, v) => {
        if (k === 'operator_token_hash') throw new Error('killed');
        return setIfAbsent(k, v);
      };
      await assert.rejects(resolveSecrets(h.store, config, { generated: (t) => seen.push(t), notUsed: () => {} }), /killed/);
      h.store.settings.setIfAbsent = setIfAbsent;
      const s = await resolveSecrets(h.store, config, { generated: (t) => seen.push(t), notUsed: () => {} });
      assert.equal(seen.length, 2);
      assert.equal(s.operatorTokenHash, hashOperatorToken(seen[1]!));
    } finally {
      await h.close();
    }
  });
});

describe('npm start stopped during start-up', () => {
  test('SIGTERM before listening: exits 0, releases the lock; the next start finishes the seed and prints the key once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cambio-first-start-'));
    const startProcess = (onLine?: (out: string, kill: () => void) => void) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const p = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
          cwd: root,
          env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', DATA_DIR: dir },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        const on = (d: Buffer) => {
          out += d.toString();
          onLine?.(out, () => p.kill('SIGTERM'));
        };
        p.stdout.on('data', on);
        p.stderr.on('data', on);
        p.once('exit', (code) => resolve({ code, out }));
      });
    try {
      let sent = false;
      // stopped the moment the operator token is printed: before the demo is seeded and before listening
      const first = await startProcess((out, kill) => {
        if (!sent && /operator token \(shown once\)/.test(out)) {
          sent = true;
          kill();
        }
      });
      assert.equal(first.code, 0, first.out);
      assert.doesNotMatch(first.out, /listening on/);
      assert.equal(existsSync(join(dir, 'cambio.lock')), false, 'the lock is released');

      let url = '';
      const second = await startProcess((out, kill) => {
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m && !url) {
          url = m[1]!;
          setTimeout(kill, 10);
        }
      });
      assert.equal(second.code, 0, second.out);
      assert.doesNotMatch(second.out, /operator token/, 'the token was shown by the first start, never again');
      const key = /demo API key \(shown once\): (\S+)/.exec(second.out)?.[1];
      assert.match(second.out, /demo sign-in \(shown once\): demo@cambio\.example \S{20}\n/);
      assert.match(second.out, /operator sign-in \(shown once\): operator@cambio\.example \S{20}\n/);
      assert.ok(key, `the demo key is printed by the start that seeds it: ${second.out}`);
      assert.equal(existsSync(join(dir, 'cambio.lock')), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

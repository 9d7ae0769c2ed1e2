import type { OpKind } from './client-ops.ts';
import type { Rng } from './prng.ts';
import type { World } from './world.ts';

/**
 * What the people at the operator do, concurrently with the clients: decide requests (sometimes
 * approve and reject the same one at once: only one may win), record arrivals (sometimes a repeated
 * txid, sometimes an amount nobody declared), attribute, register destinations, adjust, reconcile.
 */
type OperatorOp = Omit<OpKind, 'run'> & { run: (w: World, rng: Rng) => Promise<void>; mode?: 'sandbox' | 'production' };

function decide(kind: 'orders' | 'withdrawals'): OperatorOp {
  return {
    name: `decide-${kind}`,
    weight: 4,
    needs: [`GET /operator/v1/${kind}`, `POST /operator/v1/${kind}/{id}/approve`, `POST /operator/v1/${kind}/{id}/reject`],
    run: async (w, rng) => {
      const l = await w.send(rng, 'operator-read', 'GET', `/operator/v1/${kind}?state=pending_approval&limit=50`, { operator: true });
      if (l.kind !== 'answered' || l.status !== 200) return;
      const items = l.body.data as Array<{ id: string }>;
      // A desk works through a few of the queue at a time, in no particular order.
      for (let n = Math.min(items.length, rng.int(1, 4)); n > 0; n--) {
        const id = items.splice(rng.int(0, items.length - 1), 1)[0]!.id;
        await decideOne(w, rng, kind, id);
      }
    },
  };
}

async function decideOne(w: World, rng: Rng, kind: 'orders' | 'withdrawals', id: string): Promise<void> {
  const race = rng.chance(0.15);
  const choices: Array<'approve' | 'reject'> = race
    ? ['approve', rng.pick(['approve', 'reject'] as const)]
    : [rng.chance(0.75) ? 'approve' : 'reject'];
  const results = await Promise.all(
    choices.map(async (c) => {
      const r = await w.send(rng, `${c}-${kind}`, 'POST', `/operator/v1/${kind}/${id}/${c}`, {
        operator: true,
        body: c === 'reject' ? { reason: 'verify-bank' } : {},
      });
      if (r.kind === 'answered' && r.status === 200) w.history.decided(id, c === 'approve' ? 'approved' : 'rejected');
      else if (r.kind === 'answered' && ![409, 422].includes(r.status))
        w.history.violate(`${c} ${kind} ${id} answered ${r.status} ${r.body.code}`);
      return r;
    }),
  );
  const wins = results.filter((r) => r.kind === 'answered' && r.status === 200).length;
  if (wins > 1) w.history.violate(`${kind} ${id}: ${wins} decisions answered 200`);
}

const arrival: OperatorOp = {
  name: 'arrival',
  weight: 2,
  needs: ['POST /operator/v1/deposits'],
  run: async (w, rng) => {
    let body: { assetSymbol: string; network: string; amountMinor: string; txid: string };
    const repeat = w.txids.length > 0 && rng.chance(0.05);
    const d = w.declared.length > 0 && rng.chance(0.85) ? w.declared.splice(rng.int(0, w.declared.length - 1), 1)[0]! : null;
    if (repeat) {
      const a = rng.pick(w.assets);
      body = { assetSymbol: a.symbol, network: a.network, amountMinor: '777', txid: rng.pick(w.txids) };
    } else if (d) {
      body = { assetSymbol: d.asset, network: d.network, amountMinor: d.expected, txid: w.unique('tx') };
    } else {
      const a = rng.pick(w.assets);
      body = { assetSymbol: a.symbol, network: a.network, amountMinor: String(rng.int(1, 99_999)), txid: w.unique('tx') };
    }
    const t = w.history.begin('deposit', body.txid);
    const r = await w.send(rng, 'arrival', 'POST', '/operator/v1/deposits', { operator: true, body });
    w.history.end(t, r.kind === 'lost' ? 'lost' : r.status === 201 ? { id: String(r.body.data.id) } : null);
    if (r.kind === 'lost' && d) w.declared.push(d);
    if (r.kind !== 'answered') return;
    if (repeat && r.status !== 409) w.history.violate(`txid ${body.txid} recorded again answered ${r.status}, not 409`);
    if (!repeat && r.status === 201) w.txids.push(body.txid);
    if (!repeat && r.status !== 201) w.history.violate(`arrival ${body.txid} answered ${r.status} ${r.body.code}`);
  },
};

const attribute: OperatorOp = {
  name: 'attribute',
  weight: 0.5,
  needs: ['GET /operator/v1/deposits', 'POST /operator/v1/deposits/{id}/attribute'],
  run: async (w, rng) => {
    const l = await w.send(rng, 'operator-read', 'GET', '/operator/v1/deposits?state=unattributed&limit=50', { operator: true });
    if (l.kind !== 'answered' || l.status !== 200 || l.body.data.length === 0) return;
    const dep = rng.pick(l.body.data as Array<{ id: string }>);
    const org = rng.pick(w.orgs);
    const r = await w.send(rng, 'attribute', 'POST', `/operator/v1/deposits/${dep.id}/attribute`, {
      operator: true,
      body: { organizationId: org.id },
    });
    if (r.kind === 'answered' && ![200, 201, 409].includes(r.status))
      w.history.violate(`attribute ${dep.id} answered ${r.status} ${r.body.code}`);
  },
};

const register: OperatorOp = {
  name: 'register-destination',
  weight: 2,
  needs: ['POST /operator/v1/destinations/{id}/register-in-market'],
  run: async (w, rng) => {
    if (w.toRegister.length === 0) return;
    const id = w.toRegister.splice(rng.int(0, w.toRegister.length - 1), 1)[0]!;
    const r = await w.send(rng, 'register-destination', 'POST', `/operator/v1/destinations/${id}/register-in-market`, { operator: true });
    if (r.kind === 'lost') w.toRegister.push(id);
    else if (r.status !== 200 && r.status !== 409) w.history.violate(`register ${id} in market answered ${r.status} ${r.body.code}`);
  },
};

/** A signed adjustment; a debit beyond what is available must be refused and change nothing. */
const adjust: OperatorOp = {
  name: 'adjust',
  weight: 1,
  needs: ['POST /operator/v1/organizations/{id}/adjustments'],
  run: async (w, rng) => {
    const org = rng.pick(w.orgs);
    const a = rng.pick(w.assets);
    const size = a.decimals >= 8 ? rng.big(1n, 5_000_000n) : rng.big(1n, 50_000n);
    const amount = rng.chance(0.4) ? -size : size;
    const reason = w.unique('adjust');
    const t = w.history.begin('adjustment', reason);
    const r = await w.send(rng, 'adjust', 'POST', `/operator/v1/organizations/${org.id}/adjustments`, {
      operator: true,
      body: { assetSymbol: a.symbol, amountMinor: amount.toString(), reason },
    });
    w.history.end(t, r.kind === 'lost' ? 'lost' : r.status === 201 ? { id: String(r.body.data.entryId) } : null);
    if (r.kind === 'answered' && r.status !== 201 && !(amount < 0n && r.status === 422))
      w.history.violate(`adjustment ${amount} ${a.symbol} answered ${r.status} ${r.body.code}`);
  },
};

/** The service compares its books with the simulated venue while money moves: it must find them equal. */
const reconcile: OperatorOp = {
  name: 'reconcile',
  weight: 0.3,
  mode: 'sandbox',
  needs: ['POST /operator/v1/reconciliation/run', 'POST /operator/v1/reconciliation/resolve'],
  run: async (w, rng) => {
    const r = await w.send(rng, 'reconcile', 'POST', '/operator/v1/reconciliation/run', { operator: true, body: {} });
    if (r.kind !== 'answered' || r.status >= 300) return;
    if (r.body.data.matched === false) {
      w.history.violate(
        `reconciliation against the venue found a mismatch under load: ${JSON.stringify(r.body.data.figures).slice(0, 400)}`,
      );
      await w.send(rng, 'reconcile', 'POST', '/operator/v1/reconciliation/resolve', { operator: true });
    }
  },
};

/**
 * Production (docs/design/money-and-states.md): the simulated desk works through what waits for it, approved orders and
 * withdrawals, and records each outcome: a fill (proceeds around the quoted amount, sometimes below it:
 * the platform's loss) or a failure; a payout or a failure. Sometimes two people record the same one at
 * once: exactly one may win, the other is 409.
 */
function desk(kind: 'orders' | 'withdrawals'): OperatorOp {
  const done = kind === 'orders' ? 'fill' : 'payout';
  return {
    name: `desk-${kind}`,
    weight: 3,
    mode: 'production',
    needs: [`GET /operator/v1/${kind}`, `POST /operator/v1/${kind}/{id}/${done}`, `POST /operator/v1/${kind}/{id}/fail`],
    run: async (w, rng) => {
      await drainDesk(w, rng, kind, rng.int(1, 4));
    },
  };
}

/** Records the outcome of up to `n` approved requests of `kind`; how many were approved when listed. */
export async function drainDesk(w: World, rng: Rng, kind: 'orders' | 'withdrawals', n: number): Promise<number> {
  const l = await w.send(rng, 'operator-read', 'GET', `/operator/v1/${kind}?state=approved&limit=50`, { operator: true });
  if (l.kind !== 'answered' || l.status !== 200) return -1;
  const items = l.body.data as Array<{ id: string; quote?: { amountMinor: string } }>;
  const listed = items.length;
  for (let left = Math.min(items.length, n); left > 0; left--) {
    const item = items.splice(rng.int(0, items.length - 1), 1)[0]!;
    const record = (): { path: string; body: object; to: 'completed' | 'failed' } => {
      if (rng.chance(0.15)) return { path: 'fail', body: { reason: 'verify-bank desk' }, to: 'failed' };
      if (kind === 'withdrawals') return { path: 'payout', body: { payoutReference: w.unique('wire') }, to: 'completed' };
      const quoted = BigInt(item.quote?.amountMinor ?? '0');
      const proceeds = quoted + rng.big(0n, quoted / 50n + 1n) - quoted / 200n;
      return {
        path: 'fill',
        body: {
          venue: 'verify-bank OTC',
          venueReference: w.unique('fill'),
          proceedsQuoteMinor: (proceeds < 0n ? 0n : proceeds).toString(),
        },
        to: 'completed',
      };
    };
    const calls = rng.chance(0.15) ? [record(), record()] : [record()];
    const results = await Promise.all(
      calls.map(async (c) => {
        const r = await w.send(rng, `desk-${c.path}-${kind}`, 'POST', `/operator/v1/${kind}/${item.id}/${c.path}`, {
          operator: true,
          body: c.body,
        });
        if (r.kind === 'answered' && r.status === 200 && r.body.data.state !== c.to)
          w.history.violate(`${c.path} ${kind} ${item.id} answered 200 but is ${r.body.data.state}`);
        else if (r.kind === 'answered' && r.status !== 200 && r.status !== 409)
          w.history.violate(`${c.path} ${kind} ${item.id} answered ${r.status} ${r.body.code}`);
        return r;
      }),
    );
    const wins = results.filter((r) => r.kind === 'answered' && r.status === 200).length;
    if (wins > 1) w.history.violate(`${kind} ${item.id}: ${wins} desk records answered 200`);
  }
  return listed;
}

export const OPERATOR_OPS: OperatorOp[] = [
  decide('orders'),
  decide('withdrawals'),
  arrival,
  attribute,
  register,
  adjust,
  reconcile,
  desk('orders'),
  desk('withdrawals'),
];

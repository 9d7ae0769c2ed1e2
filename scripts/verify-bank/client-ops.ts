import { bech32 } from '@scure/base';
import type { Rng } from './prng.ts';
import type { Org, World } from './world.ts';

/**
 * What a client does, one operation kind per function. Each kind names the endpoints it needs and runs
 * only when the service has them (read from the OpenAPI document), so the workload grows with the API.
 */
export interface OpKind {
  name: string;
  weight: number;
  needs: string[];
  run: (w: World, rng: Rng, org: Org) => Promise<void>;
}

const READS = [
  '/client',
  '/balances',
  '/ledger?limit=20',
  '/orders?limit=20',
  '/withdrawals?limit=20',
  '/deposits?limit=20',
  '/withdrawals/destinations',
  '/deposits/open-declaration',
];

const read: OpKind = {
  name: 'read',
  weight: 3,
  needs: ['GET /api/v1/client'],
  run: async (w, rng, org) => {
    const path = rng.pick(READS.filter((p) => w.has('GET', `/api/v1${p.split('?')[0]}`)));
    const r = await w.send(rng, 'read', 'GET', `/api/v1${path}`, { key: org.key });
    if (r.kind !== 'answered') return;
    if (r.status !== 200) w.history.violate(`GET ${path} answered ${r.status} ${r.body.code} to a key with every scope`);
    if (path === '/balances' && r.status === 200) {
      for (const b of r.body.data as Array<Record<string, string>>) {
        for (const f of ['amountMinor', 'heldMinor', 'totalMinor']) {
          if (b[f] !== undefined && b[f]!.startsWith('-')) w.history.violate(`${org.id} saw a negative ${f} ${b[f]} ${b.assetSymbol}`);
        }
      }
    }
  },
};

/** On the venue's step grid, where the pair has one: a venue refuses other amounts at quote time. */
const onStep = (a: bigint, step: bigint | undefined) => (step ? (a / step > 0n ? (a / step) * step : step) : a);

/** A quote, then (mostly) an order on it; sometimes the same quote is accepted twice at once: at most one 201. */
const order: OpKind = {
  name: 'order',
  weight: 4,
  needs: ['POST /api/v1/quotes', 'POST /api/v1/orders'],
  run: async (w, rng, org) => {
    if (w.pairs.length === 0) return;
    const p = rng.pick(w.pairs);
    const top = p.maxBase / 100n > p.minBase * 20n ? p.maxBase / 100n : p.minBase * 20n;
    const body = rng.chance(0.8)
      ? { baseSymbol: p.base, quoteSymbol: p.quote, amountBaseMinor: onStep(rng.big(p.minBase / 2n, top), p.step).toString() }
      : { baseSymbol: p.base, quoteSymbol: p.quote, amountQuoteMinor: String(rng.int(100, 500_000)) };
    const q = await w.send(rng, 'quote', 'POST', '/api/v1/quotes', { key: org.key, body });
    if (q.kind !== 'answered' || q.status !== 201) return;
    const quoteId = String(q.body.data.id);
    if (rng.chance(0.05)) return; // abandoned: a quote commits to nothing
    const twice = rng.chance(0.1);
    const attempts = await Promise.all(
      Array.from({ length: twice ? 2 : 1 }, async () => {
        const t = w.history.begin('order', quoteId);
        const r = await w.send(rng, 'order', 'POST', '/api/v1/orders', { key: org.key, body: { quoteId } });
        w.history.end(t, r.kind === 'lost' ? 'lost' : r.status === 201 ? { id: String(r.body.data.id) } : null);
        return r;
      }),
    );
    const won = attempts.filter((r) => r.kind === 'answered' && r.status === 201).length;
    if (won > 1) w.history.violate(`quote ${quoteId} was accepted ${won} times`);
  },
};

const declare: OpKind = {
  name: 'declare',
  weight: 1.5,
  needs: ['POST /api/v1/deposits/declarations'],
  run: async (w, rng, org) => {
    const a = rng.pick(w.assets);
    const declared = a.decimals >= 8 ? rng.big(100_000n, 50_000_000n) : rng.big(1_000n, 500_000n);
    const t = w.history.begin('declaration', `${org.id}|${a.symbol}|${declared}`);
    const r = await w.send(rng, 'declare', 'POST', '/api/v1/deposits/declarations', {
      key: org.key,
      body: { assetSymbol: a.symbol, assetDecimals: a.decimals, declaredAmountMinor: declared.toString() },
    });
    w.history.end(t, r.kind === 'lost' ? 'lost' : r.status === 201 ? { id: String(r.body.data.id) } : null);
    if (r.kind === 'answered' && r.status === 201) {
      w.declared.push({
        orgId: org.id,
        asset: a.symbol,
        expected: String(r.body.data.expectedAmountMinor),
        network: String(r.body.data.network ?? a.network),
      });
    }
  },
};

const destination: OpKind = {
  name: 'destination',
  weight: 0.5,
  needs: ['POST /api/v1/withdrawals/destinations/bank'],
  run: async (w, rng, org) => {
    const a = rng.pick(w.assets.filter((x) => x.kind === 'fiat'));
    const label = w.unique('dest');
    const accountNumber = `${rng.digits(4)}-${rng.digits(8)}`;
    const holderDocument = `V${rng.digits(9)}`;
    w.secrets.add('account number', accountNumber);
    w.secrets.add('account number digits', accountNumber.replace(/\D/g, ''));
    w.secrets.add('holder document', holderDocument);
    const t = w.history.begin('destination', `${org.id}|${label}`);
    const r = await w.send(rng, 'destination', 'POST', '/api/v1/withdrawals/destinations/bank', {
      key: org.key,
      body: {
        label,
        assetSymbol: a.symbol,
        bankName: 'Banco Verify',
        accountKind: rng.pick(['savings', 'checking']),
        accountNumber,
        holderName: 'Verify Holder',
        holderDocument,
      },
    });
    w.history.end(t, r.kind === 'lost' ? 'lost' : r.status === 201 ? { id: String(r.body.data.id) } : null);
    if (r.kind === 'answered' && r.status === 201) {
      w.toRegister.push(String(r.body.data.id));
      for (const s of [accountNumber, holderDocument])
        if (r.raw.includes(s)) w.history.violate(`the registration answer of ${r.body.data.id} shows a secret`);
      // The same account again is a 409, and creates nothing.
      if (rng.chance(0.1)) {
        const t2 = w.history.begin('destination', `${org.id}|${label}-again`);
        const again = await w.send(rng, 'destination', 'POST', '/api/v1/withdrawals/destinations/bank', {
          key: org.key,
          body: {
            label: `${label}-again`,
            assetSymbol: a.symbol,
            bankName: 'Banco Verify',
            accountKind: 'savings',
            accountNumber,
            holderName: 'Verify Holder',
            holderDocument,
          },
        });
        w.history.end(t2, again.kind === 'lost' ? 'lost' : again.status === 201 ? { id: String(again.body.data.id) } : null);
        if (again.kind === 'answered' && again.status !== 409)
          w.history.violate(`a repeated destination answered ${again.status} ${again.body.code}, not 409`);
      }
    }
  },
};

/**
 * A BTC address (a random segwit v0 key hash, a valid bech32 address) as a destination: crypto withdrawals
 * join the mix (approved, then completed with a txid or failed by the sandbox, the desk or the venue).
 * Sometimes a mistyped address or a bank account's asset: refused with its code, nothing registered.
 */
const cryptoDestination: OpKind = {
  // A name of its own: the loop picks an operation kind by name, and a shared one would hide the bank kind.
  name: 'crypto-destination',
  weight: 0.3,
  needs: ['POST /api/v1/withdrawals/destinations/crypto'],
  run: async (w, rng, org) => {
    const btc = w.assets.find((a) => a.kind === 'crypto');
    if (!btc?.destinationNetwork) return;
    const network = w.atVenue ? btc.destinationNetwork.venue : btc.destinationNetwork.other;
    const program = Uint8Array.from({ length: 20 }, () => Number(rng.big(0n, 255n)));
    const address = bech32.encode('bc', [0, ...bech32.toWords(program)]);
    const label = w.unique('addr');
    if (rng.chance(0.1)) {
      // One character changed breaks the checksum; a fiat asset at a valid EVM address is the wrong kind. Either
      // is a 422 and creates nothing.
      const typo = rng.chance(0.5);
      const last = address.at(-1) === 'q' ? 'p' : 'q';
      const evm = `0x${Array.from(program, (b) => b.toString(16).padStart(2, '0')).join('')}`;
      const body = typo
        ? { label, assetSymbol: btc.symbol, network, address: `${address.slice(0, -1)}${last}` }
        : { label, assetSymbol: rng.pick(w.assets.filter((a) => a.kind === 'fiat')).symbol, network: 'ETH', address: evm };
      const t = w.history.begin('destination', `${org.id}|${label}`);
      const bad = await w.send(rng, 'crypto-destination', 'POST', '/api/v1/withdrawals/destinations/crypto', { key: org.key, body });
      w.history.end(t, bad.kind === 'lost' ? 'lost' : bad.status === 201 ? { id: String(bad.body.data.id) } : null);
      const want = typo ? 'destinations.invalid_address' : 'destinations.kind_mismatch';
      if (bad.kind === 'answered' && (bad.status !== 422 || bad.body.code !== want))
        w.history.violate(`a crypto destination that should be refused (${want}) answered ${bad.status} ${bad.body.code ?? ''}`);
      return;
    }
    const t = w.history.begin('destination', `${org.id}|${label}`);
    const r = await w.send(rng, 'crypto-destination', 'POST', '/api/v1/withdrawals/destinations/crypto', {
      key: org.key,
      body: { label, assetSymbol: btc.symbol, network, address },
    });
    w.history.end(t, r.kind === 'lost' ? 'lost' : r.status === 201 ? { id: String(r.body.data.id) } : null);
    if (r.kind === 'answered' && r.status === 201) {
      w.toRegister.push(String(r.body.data.id));
      if (r.body.data.address !== address) w.history.violate(`the crypto destination ${r.body.data.id} answered another address`);
    }
  },
};

/** A withdrawal to a usable destination; sometimes two at once that together exceed what is available. */
const withdraw: OpKind = {
  name: 'withdraw',
  weight: 3,
  needs: ['POST /api/v1/withdrawals', 'GET /api/v1/withdrawals/destinations'],
  run: async (w, rng, org) => {
    const l = await w.send(rng, 'read', 'GET', '/api/v1/withdrawals/destinations', { key: org.key });
    if (l.kind !== 'answered' || l.status !== 200) return;
    const usable = (l.body.data as Array<{ id: string; assetSymbol: string; usable: boolean }>).filter((d) => d.usable);
    if (usable.length === 0) return;
    const d = rng.pick(usable);
    const a = w.assets.find((x) => x.symbol === d.assetSymbol)!;
    const n = rng.chance(0.15) ? 2 : 1;
    await Promise.all(
      Array.from({ length: n }, async () => {
        const amount = a.decimals >= 8 ? rng.big(10_000n, 3_000_000n) : rng.big(100n, 40_000n);
        const t = w.history.begin('withdrawal', `${org.id}|${d.id}|${amount}`);
        const r = await w.send(rng, 'withdraw', 'POST', '/api/v1/withdrawals', {
          key: org.key,
          body: { destinationId: d.id, assetSymbol: a.symbol, assetDecimals: a.decimals, amountMinor: amount.toString() },
        });
        w.history.end(t, r.kind === 'lost' ? 'lost' : r.status === 201 ? { id: String(r.body.data.id) } : null);
      }),
    );
  },
};

export const CLIENT_OPS: OpKind[] = [read, order, declare, destination, cryptoDestination, withdraw];

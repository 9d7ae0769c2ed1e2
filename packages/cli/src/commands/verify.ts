import { APIError, ConnectionError, CosignatureError, requireCosignatures, verifyConsistency } from '@cambio/sdk';
import type { Command } from 'commander';
import { UsageError } from '../config.ts';
import type { Ctx } from '../context.ts';
import { BooksMismatch } from '../output.ts';
import { leafHashOf, openCheckpoint, parseNoteKey, readLeaf, StreamingTree } from '../verify/log-check.ts';
import { verifyMine } from '../verify/mine.ts';

const PAGE = 1000;
interface Checkpoint {
  treeSize: number;
  rootHash: string;
  note: string;
}
interface Entry {
  index: number;
  entryId: string;
  leaf: string;
  leafHash: string;
}

/**
 * `cambio verify` (operator): reads the whole journal log, checks every leaf against the entry's
 * postings as stored, recomputes every signed checkpoint's root, checks each checkpoint's consistency
 * with the one before, and that every organization's balances equal the sum of its postings; with
 * `--witness`, that the checkpoint served to clients carries the witnesses' cosignatures and is one of the
 * checkpoints checked. Exits 8 naming the first entry that does not hold.
 */
export function register(program: Command, ctx: Ctx): void {
  program
    .command('verify')
    .description(
      'operator: check the books against the signed journal log (exit 8 naming the first bad entry); --mine: a client checks its own entries, liabilities and the checkpoints it saw before',
    )
    .option(
      '--mine',
      'with a client key: check the own entries and liabilities, and the latest checkpoint against those seen before (kept in the config folder)',
    )
    .option(
      '--witness <vkey>',
      "a witness's verifier key (C2SP tlog-cosignature v1) whose cosignature the checkpoint must carry; repeatable",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--witness-quorum <k>', 'how many of the --witness keys must have cosigned the checkpoint (default: all)')
    .action(async (opts: { mine?: boolean; witness: string[]; witnessQuorum?: string }) => {
      const quorum = opts.witnessQuorum === undefined ? opts.witness.length : Number(opts.witnessQuorum);
      if (!/^[0-9]+$/.test(opts.witnessQuorum ?? '0') || quorum > opts.witness.length)
        throw new UsageError(`--witness-quorum must be a whole number from 0 to the number of --witness keys (${opts.witness.length})`);
      if (opts.mine) return verifyMine(ctx, { witnesses: opts.witness, quorum });
      const s = ctx.settings();
      const op = ctx.operator(); // refuses without OPERATOR_TOKEN
      // Plain GETs (a text/plain answer is not the SDK's envelope); failures become the SDK's errors, so the exit code says what failed.
      const get = async (path: string, operator: boolean): Promise<Response> => {
        let r: Response;
        try {
          r = await fetch(`${s.baseUrl}${path}`, { headers: operator ? { authorization: `Bearer ${s.operatorToken}` } : {} });
        } catch (e) {
          throw new ConnectionError({
            status: 0,
            code: 'sdk.network_error',
            message: `network error: ${e instanceof Error ? e.message : String(e)}`,
            method: 'GET',
            path,
            cause: e,
          });
        }
        if (!r.ok) {
          const body = await r.text();
          let code = 'http.error';
          try {
            code = (JSON.parse(body) as { code?: string }).code ?? code;
          } catch {
            /* not the envelope */
          }
          throw new APIError({ status: r.status, code, message: `GET ${path}: HTTP ${r.status}`, method: 'GET', path });
        }
        return r;
      };
      const key = parseNoteKey(await (await get('/transparency/key', false)).text());

      // Witnesses (docs/transparency.md): the checkpoint every client is served must carry the cosignatures
      // of enough of them, and be one of the checkpoints checked below. Read first, so the list has it.
      let served: { size: number; root: Buffer; cosigners: string[] } | null = null;
      if (opts.witness.length > 0) {
        const note = await (await get('/transparency/checkpoint', false)).text();
        const cp = openCheckpoint(note, key);
        if (!cp) throw new BooksMismatch(`the checkpoint served at /transparency/checkpoint is not signed by ${key.name}`, null);
        try {
          served = { size: cp.size, root: cp.root, cosigners: await requireCosignatures(note, opts.witness, quorum) };
        } catch (e) {
          if (e instanceof CosignatureError) throw new BooksMismatch(`checkpoint ${cp.size}: ${e.message}`, null);
          throw e;
        }
      }

      const checkpoints: Checkpoint[] = [];
      for (let from = 0; ;) {
        const page = (
          (await (await get(`/operator/v1/transparency/checkpoints?from=${from}&limit=${PAGE}`, true)).json()) as { data: Checkpoint[] }
        ).data;
        checkpoints.push(...page);
        if (page.length < PAGE) break;
        from = page[page.length - 1]!.treeSize + 1;
      }

      const tree = new StreamingTree();
      const sums = new Map<string, bigint>(); // `org:<id>:<kind>` \0 asset → sum of postings
      let next = 0; // the next checkpoint to reach
      let prev: { size: number; root: Buffer } | null = null;
      let lastGood = 0;
      const entryIds: string[] = [];
      const reach = async () => {
        while (next < checkpoints.length && checkpoints[next]!.treeSize === tree.size) {
          const c = checkpoints[next]!;
          const cp = openCheckpoint(c.note, key);
          if (!cp || cp.size !== c.treeSize || cp.root.toString('hex') !== c.rootHash)
            throw new BooksMismatch(`checkpoint ${c.treeSize} is not signed by ${key.name}`, entryIds[lastGood] ?? null);
          if (!cp.root.equals(tree.root())) {
            throw new BooksMismatch(
              `the leaves do not rebuild the signed root of checkpoint ${c.treeSize}: a logged leaf hash changed after checkpoint ${lastGood}`,
              entryIds[lastGood] ?? null,
            );
          }
          if (prev) {
            const proof = (
              (await (await get(`/transparency/consistency?from=${prev.size}&to=${cp.size}`, false)).json()) as {
                data: { proof: string[] };
              }
            ).data.proof;
            if (
              !(await verifyConsistency(
                { treeSize: prev.size, rootHash: prev.root.toString('hex') },
                { treeSize: cp.size, rootHash: cp.root.toString('hex') },
                proof,
              ))
            )
              throw new BooksMismatch(`checkpoints ${prev.size} and ${cp.size} are not consistent`, entryIds[prev.size] ?? null);
          }
          prev = cp;
          lastGood = cp.size;
          next += 1;
        }
      };
      await reach();
      for (let from = 0; ;) {
        const page = ((await (await get(`/operator/v1/transparency/entries?from=${from}&limit=${PAGE}`, true)).json()) as { data: Entry[] })
          .data;
        for (const e of page) {
          if (e.index !== tree.size) throw new BooksMismatch(`the log skips from index ${tree.size} to ${e.index}`, e.entryId);
          if (leafHashOf(e.leaf).toString('hex') !== e.leafHash)
            throw new BooksMismatch(
              `entry ${e.entryId} (index ${e.index}) no longer matches its logged leaf: its postings were changed`,
              e.entryId,
            );
          const read = readLeaf(e.leaf, e.index, e.entryId);
          if ('problem' in read) throw new BooksMismatch(`entry ${e.entryId} (index ${e.index}): ${read.problem}`, e.entryId);
          for (const p of read.postings) {
            if (!p.account.startsWith('org:')) continue;
            const k = `${p.account}\u0000${p.assetSymbol}`;
            sums.set(k, (sums.get(k) ?? 0n) + BigInt(p.amountMinor));
          }
          entryIds.push(e.entryId);
          tree.push(Buffer.from(e.leafHash, 'hex'));
          await reach();
        }
        if (page.length < PAGE) break;
        from = tree.size;
      }
      if (next < checkpoints.length)
        throw new BooksMismatch(`checkpoint ${checkpoints[next]!.treeSize} is beyond the ${tree.size} logged entries`, null);
      if (served) {
        const sv = served;
        const same = checkpoints.find((c) => c.treeSize === sv.size);
        if (!same || same.rootHash !== sv.root.toString('hex'))
          throw new BooksMismatch(
            `the cosigned checkpoint ${sv.size} served to clients is not the log's checkpoint of that size: clients are shown another tree`,
            entryIds[sv.size - 1] ?? null,
          );
      }

      // Balances: available + held of every organization and asset equal the sum of its logged postings.
      // Entries committed while this ran may not be logged yet: read the balances once the log has them (the
      // operator runs this on quiet books, or runs it again).
      const mismatches: string[] = [];
      for (let page = 1; ; page++) {
        const orgs = await op.organizations.list({ page, limit: 100 });
        for (const o of orgs.items) {
          for (const b of await op.organizations.balances(o.id)) {
            const logged = (kind: string) => sums.get(`org:${o.id}:${kind}\u0000${b.assetSymbol}`) ?? 0n;
            const have = BigInt(b.amountMinor) + BigInt(b.heldMinor);
            const want = logged('available') + logged('held');
            if (have !== want) mismatches.push(`${o.id} ${b.assetSymbol}: balance ${have}, postings ${want}`);
          }
        }
        if (page >= orgs.pagination.totalPages) break;
      }
      if (mismatches.length > 0)
        throw new BooksMismatch(`balances differ from the sum of the logged postings: ${mismatches.join('; ')}`, null);

      const summary = {
        ok: true,
        entries: tree.size,
        checkpoints: checkpoints.length,
        key: key.name,
        root: tree.root().toString('hex'),
        ...(served ? { cosigned: { treeSize: served.size, by: served.cosigners } } : {}),
      };
      ctx.print(
        summary,
        () =>
          `ok: ${tree.size} entries, ${checkpoints.length} checkpoints signed by ${key.name}, each consistent with the one before; balances equal the postings${
            served ? `; checkpoint ${served.size} cosigned by ${served.cosigners.join(', ') || 'no witness (quorum 0)'}` : ''
          }`,
      );
    });
}

import { ConsistencyProof, ConsistencyQuery, ErrorEnvelope } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { consistencyProof, EMPTY_ROOT } from '../../domain/transparency/merkle.ts';
import { checkpointText } from '../../domain/transparency/note.ts';
import { logIdentity } from '../../usecases/transparency/log-signer.ts';
import { ok } from '../envelope.ts';
import { responses } from '../schemas.ts';

const tags = ['transparency'];
const text = (description: string) => ({
  200: { description, content: { 'text/plain': { schema: Type.String() } } },
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
});

/**
 * The journal log's public face (docs/transparency.md): anyone, without a credential, reads the latest signed
 * checkpoint, the key that verifies it and a consistency proof between two checkpoints.
 */
export const transparencyPublicRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store } = deps;
    app.get(
      '/checkpoint',
      {
        config: { public: true },
        schema: {
          tags,
          security: [],
          operationId: 'getTransparencyCheckpoint',
          summary:
            "The latest signed checkpoint of the journal log (C2SP tlog-checkpoint signed note), with every witness cosignature obtained for it after the log's signature, text/plain",
          response: text('the signed note'),
        },
      },
      async (_req, reply) => {
        const latest = await store.transparency.latestCheckpoint();
        let note = latest?.note;
        // Witnesses' cosignatures of this checkpoint, as extra signature lines after the log's own (C2SP).
        if (latest && note !== undefined)
          for (const line of (await store.transparency.cosignatures(latest.size)).values()) note += `${line}\n`;
        if (note === undefined) {
          // Before any entry: the empty tree, signed now (Ed25519 is deterministic: the same note every time).
          const id = await logIdentity(deps);
          note = id.signer.sign(checkpointText(id.origin, 0, EMPTY_ROOT));
        }
        return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(note);
      },
    );

    app.get(
      '/key',
      {
        config: { public: true },
        schema: {
          tags,
          security: [],
          operationId: 'getTransparencyKey',
          summary: "The checkpoints' verifier key: <name>+<hex key hash>+<base64 of 0x01 ‖ Ed25519 public key>, text/plain",
          response: text('the note verifier key and a newline'),
        },
      },
      async (_req, reply) => reply.type('text/plain; charset=utf-8').send(`${(await logIdentity(deps)).signer.verifierKey()}\n`),
    );

    app.get(
      '/consistency',
      {
        config: { public: true },
        schema: {
          tags,
          security: [],
          operationId: 'getTransparencyConsistency',
          summary: "RFC 9162 consistency proof between two checkpoints' tree sizes, 0 < from ≤ to ≤ the latest",
          querystring: ConsistencyQuery,
          response: responses(200, ConsistencyProof),
        },
      },
      async (req) => {
        const { from, to } = req.query;
        const latest = (await store.transparency.latestCheckpoint())?.size ?? 0;
        if (!(from > 0 && from <= to && to <= latest))
          throw new DomainError('transparency.bad_tree_size', {
            detail: `a consistency proof needs 0 < from ≤ to ≤ ${latest}, the latest checkpoint's size`,
          });
        const proof = await consistencyProof(from, to, store.transparency);
        return ok(req.id, { from, to, proof: proof.map((h) => h.toString('hex')) });
      },
    );

    app.get(
      '/liabilities/latest',
      {
        config: { public: true },
        schema: {
          tags,
          security: [],
          operationId: 'getPublishedLiabilities',
          summary:
            "The latest liabilities snapshot's roots and totals per asset, as a note signed by the checkpoint key (its text the JSON on one line), text/plain; 404 liabilities.no_snapshot before any",
          response: text('the signed note'),
        },
      },
      async (_req, reply) => {
        const latest = await store.liabilities.latest();
        if (!latest) throw new DomainError('liabilities.no_snapshot');
        return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(latest.note);
      },
    );
  };

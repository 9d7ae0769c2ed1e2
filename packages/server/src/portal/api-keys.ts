import { PortalIssuedKey, PortalIssueKey, PortalKey } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../deps.ts';
import { generateApiKey, hashSecret } from '../domain/keys/api-key.ts';
import { ok } from '../http/envelope.ts';
import { listResponses, responses } from '../http/schemas.ts';
import { keyWire } from '../http/wire/people.ts';
import { actorOf } from '../people/accounts.ts';
import { issueKey } from '../usecases/keys/issue-key.ts';
import { revokeKey } from '../usecases/keys/revoke-key.ts';
import { memberOf } from './member-of.ts';
import { writeKeyUses } from '../usecases/keys/record-key-use.ts';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const security = [{ memberSession: [] }];
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Team › API keys (docs/design/people-and-apps.md): issue (scopes within one's role, shown once), list, revoke any key of the organization. */
export const apiKeyRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, config, secret } = deps;
    const tags = ['portal: api keys'];
    const list = async (orgId: string) => {
      await writeKeyUses({ store });
      return store.members.keys(orgId);
    };

    app.get(
      '/api-keys',
      {
        config: { portal: ['portal:api_keys', 'portal:read'] },
        schema: {
          tags,
          security,
          response: listResponses(PortalKey),
          summary: 'Every key of the organization: prefix, scopes, issuer, created, last used, expiry',
        },
      },
      async (req) => ok(req.id, (await list(memberOf(req).organization.id)).map(keyWire)),
    );

    app.post(
      '/api-keys',
      {
        config: { portal: ['portal:api_keys'] },
        schema: {
          tags,
          security,
          body: PortalIssueKey,
          response: responses(201, PortalIssuedKey),
          summary:
            "Issues a key with scopes no wider than one's role, optional expiry (in the future) and IP allowlist; the key is shown only here",
        },
      },
      async (req, reply) => {
        const me = memberOf(req);
        const expiresAt = req.body.expiresAt ? new Date(req.body.expiresAt) : null;
        const g = generateApiKey(config.keyTag);
        const issued = await issueKey(deps, actorOf('member', me.member.id), {
          memberId: me.member.id,
          prefix: g.prefix,
          secretHash: hashSecret(secret, g.secret),
          scopes: req.body.scopes,
          expiresAt,
          allowedIps: req.body.allowedIps ?? null,
          name: req.body.name?.trim() ?? null,
        });
        return reply.code(201).send(
          ok(req.id, {
            id: issued.id,
            prefix: issued.prefix,
            scopes: issued.scopes,
            key: g.key,
            expiresAt: iso(issued.expiresAt),
            allowedIps: issued.allowedIps,
            name: req.body.name?.trim() ?? null,
            createdAt: issued.createdAt.toISOString(),
          }),
        );
      },
    );

    app.post(
      '/api-keys/:id/revoke',
      {
        config: { portal: ['portal:api_keys'] },
        schema: {
          tags,
          security,
          params: IdParam,
          response: responses(200, PortalKey),
          summary: "Revokes any key of the organization (another organization's is not found)",
        },
      },
      async (req) => {
        const me = memberOf(req);
        await revokeKey(deps, actorOf('member', me.member.id), req.params.id, me.organization.id);
        const k = (await list(me.organization.id)).find((x) => x.id === req.params.id)!;
        return ok(req.id, keyWire(k));
      },
    );
  };

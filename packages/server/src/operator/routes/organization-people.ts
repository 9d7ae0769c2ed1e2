import { PortalKey, PortalMember } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses } from '../../http/schemas.ts';
import { keyWire, memberWire } from '../../http/wire/people.ts';
import { writeKeyUses } from '../../usecases/keys/record-key-use.ts';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const sec = [{ operator: [] }];

/**
 * What the desk reads about an organization's people (any staff role; docs/design/people-and-apps.md):
 * its members with their permissions and its API keys as the portal lists them, never a secret.
 */
export const organizationPeopleRoutes =
  ({ store }: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['operator: organizations'];
    const known = async (id: string) => {
      if (!(await store.organizations.get(id))) throw new DomainError('organizations.not_found');
    };

    app.get(
      '/organizations/:id/members',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          response: listResponses(PortalMember),
          operationId: 'listOrganizationMembers',
          summary: "The organization's members: permissions, status (invited, active, removed) and whether two-step sign-in is on",
        },
      },
      async (req) => {
        await known(req.params.id);
        return ok(req.id, (await store.members.team(req.params.id)).map(memberWire));
      },
    );

    app.get(
      '/organizations/:id/api-keys',
      {
        schema: {
          tags,
          security: sec,
          params: IdParam,
          response: listResponses(PortalKey),
          operationId: 'listOrganizationApiKeys',
          summary: "The organization's API keys: prefix, scopes, issuer, created, last used, expiry, revocation; never the secret",
        },
      },
      async (req) => {
        await known(req.params.id);
        await writeKeyUses({ store });
        return ok(req.id, (await store.members.keys(req.params.id)).map(keyWire));
      },
    );
  };

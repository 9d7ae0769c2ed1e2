import {
  CreateMember,
  CreateOrganization,
  IssueApiKey,
  IssuedApiKey,
  MemberRecord,
  OrganizationRecord,
  PatchMember,
  PatchOrganization,
  RevokedApiKey,
} from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { generateApiKey, hashSecret, keyExpiry } from '../../domain/keys/api-key.ts';
import { parseLimits } from '../../domain/organizations/organization.ts';
import { orgWire } from '../../http/wire/organizations.ts';
import { ok } from '../../http/envelope.ts';
import { responses } from '../../http/schemas.ts';
import { newInvitation } from '../../people/invitation.ts';
import { mailInvitation } from '../../people/invitation-mail.ts';
import type { Member } from '../../store/organizations-store.ts';
import { issueKey } from '../../usecases/keys/issue-key.ts';
import { revokeKey } from '../../usecases/keys/revoke-key.ts';
import { addMember } from '../../usecases/members/add-member.ts';
import { setMemberPermissions } from '../../usecases/members/set-member-permissions.ts';
import { createOrganization } from '../../usecases/organizations/create-organization.ts';
import { updateOrganization } from '../../usecases/organizations/update-organization.ts';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const sec = [{ operator: [] }];

const memberWire = (m: Member) => ({ ...m, createdAt: m.createdAt.toISOString(), updatedAt: m.updatedAt.toISOString() });

/** Organizations, their members (roles) and the keys members hold (docs/operator-guide.md). */
export const organizationRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, config, secret, clock } = deps;
    const tags = ['operator: organizations'];
    app.post(
      '/organizations',
      { schema: { tags, security: sec, body: CreateOrganization, response: responses(201, OrganizationRecord) } },
      async (req, reply) => {
        const org = await createOrganization(deps, req.operatorActor!, {
          name: req.body.name,
          status: req.body.status ?? 'draft',
          limits: parseLimits(req.body.limits),
        });
        return reply.code(201).send(ok(req.id, orgWire(org)));
      },
    );

    app.get(
      '/organizations/:id',
      { schema: { tags, security: sec, params: IdParam, response: responses(200, OrganizationRecord) } },
      async (req) => {
        const org = await store.organizations.get(req.params.id);
        if (!org) throw new DomainError('organizations.not_found');
        return ok(req.id, orgWire(org));
      },
    );

    app.patch(
      '/organizations/:id',
      { schema: { tags, security: sec, params: IdParam, body: PatchOrganization, response: responses(200, OrganizationRecord) } },
      async (req) => {
        const org = await updateOrganization(deps, req.operatorActor!, req.params.id, {
          ...(req.body.status !== undefined ? { status: req.body.status } : {}),
          ...('limits' in req.body ? { limits: parseLimits(req.body.limits) } : {}),
          ...(req.body.requireTotp !== undefined ? { requireTotp: req.body.requireTotp } : {}),
        });
        return ok(req.id, orgWire(org));
      },
    );

    app.post(
      '/organizations/:id/members',
      { schema: { tags, security: sec, params: IdParam, body: CreateMember, response: responses(201, MemberRecord) } },
      async (req, reply) => {
        const inv = newInvitation(secret, config.publicUrl, 'member', clock.now());
        const m = await addMember(deps, req.operatorActor!, req.params.id, { ...req.body, email: req.body.email.toLowerCase() }, inv);
        await mailInvitation(
          deps,
          'member',
          { email: m.email, name: m.name, place: async () => (await store.organizations.get(req.params.id))?.name ?? null },
          inv,
          req.lang,
        );
        return reply.code(201).send(ok(req.id, { ...memberWire(m), invitation: inv.wire }));
      },
    );

    app.patch(
      '/members/:id',
      { schema: { tags, security: sec, params: IdParam, body: PatchMember, response: responses(200, MemberRecord) } },
      async (req) => {
        const m = await setMemberPermissions(deps, req.operatorActor!, req.params.id, req.body.permissions);
        return ok(req.id, memberWire(m));
      },
    );

    app.post(
      '/members/:id/api-keys',
      { schema: { tags, security: sec, params: IdParam, body: IssueApiKey, response: responses(201, IssuedApiKey) } },
      async (req, reply) => {
        const g = generateApiKey(config.keyTag);
        const issued = await issueKey(deps, req.operatorActor!, {
          memberId: req.params.id,
          prefix: g.prefix,
          secretHash: hashSecret(secret, g.secret),
          scopes: req.body.scopes,
          expiresAt: keyExpiry(req.body.expiresAt, clock.now()),
          allowedIps: req.body.allowedIps ?? null,
        });
        return reply.code(201).send(
          ok(req.id, {
            id: issued.id,
            prefix: issued.prefix,
            scopes: issued.scopes,
            key: g.key,
            organizationId: issued.organizationId,
            memberId: issued.memberId,
            expiresAt: issued.expiresAt?.toISOString() ?? null,
            allowedIps: issued.allowedIps,
          }),
        );
      },
    );

    app.post(
      '/api-keys/:id/revoke',
      { schema: { tags, security: sec, params: IdParam, response: responses(200, RevokedApiKey) } },
      async (req) => {
        const r = await revokeKey(deps, req.operatorActor!, req.params.id);
        return ok(req.id, { id: r.id, revokedAt: r.revokedAt.toISOString() });
      },
    );
  };

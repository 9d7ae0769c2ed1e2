import { InviteMember, InvitedMember, PortalMember, SetPermissions } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../domain/errors.ts';
import { ok } from '../http/envelope.ts';
import { listResponses, responses } from '../http/schemas.ts';
import { actorOf } from '../people/accounts.ts';
import { newInvitation } from '../people/invitation.ts';
import { mailInvitation } from '../people/invitation-mail.ts';
import { changeRole } from '../usecases/members/change-role.ts';
import { inviteMember } from '../usecases/members/invite-member.ts';
import { reinviteMember } from '../usecases/members/reinvite-member.ts';
import { removeMember } from '../usecases/members/remove-member.ts';
import type { TeamActor } from '../usecases/members/team-actor.ts';
import { memberOf } from './member-of.ts';
import { memberWire } from '../http/wire/people.ts';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const security = [{ memberSession: [] }];

/** The signed-in member, as the team's use cases judge what they may do. */
function teamActor(req: FastifyRequest): TeamActor {
  const me = memberOf(req);
  return {
    actor: actorOf('member', me.member.id),
    memberId: me.member.id,
    organizationId: me.organization.id,
    permissions: me.member.permissions,
  };
}

/** Team: members invite, re-role and remove members of their own organization (portal:team; docs/design/people-and-apps.md). */
export const teamRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, secret, config, clock } = deps;
    const tags = ['portal: team'];
    const found = async (orgId: string, id: string) => {
      const m = await store.members.member(orgId, id);
      if (!m) throw new DomainError('members.not_found');
      return m;
    };

    app.get(
      '/team/members',
      {
        config: { portal: ['portal:team', 'portal:read'] },
        schema: { tags, security, response: listResponses(PortalMember), summary: 'The members of the organization' },
      },
      async (req) => ok(req.id, (await store.members.team(memberOf(req).organization.id)).map(memberWire)),
    );

    app.post(
      '/team/members',
      {
        config: { portal: ['portal:team'] },
        schema: {
          tags,
          security,
          body: InviteMember,
          response: responses(201, InvitedMember),
          summary: "Invites a member with permissions no wider than one's own; the invitation is shown once",
        },
      },
      async (req, reply) => {
        const me = memberOf(req);
        const inv = newInvitation(secret, config.publicUrl, 'member', clock.now());
        const m = await inviteMember(deps, teamActor(req), { ...req.body, email: req.body.email.toLowerCase() }, inv);
        await mailInvitation(deps, 'member', { email: m.email, name: m.name, place: async () => me.organization.name }, inv, req.lang);
        return reply.code(201).send(ok(req.id, { member: memberWire({ ...m, totpEnrolled: false }), invitation: inv.wire }));
      },
    );

    app.post(
      '/team/members/:id/invitation',
      {
        config: { portal: ['portal:team'] },
        schema: {
          tags,
          security,
          params: IdParam,
          response: responses(200, InvitedMember),
          summary: 'Sends a pending invitation again: a new link, shown once (mailed when mail is on); the earlier link stops working',
        },
      },
      async (req) => {
        const me = memberOf(req);
        const inv = newInvitation(secret, config.publicUrl, 'member', clock.now());
        const target = await reinviteMember(deps, teamActor(req), req.params.id, inv);
        await mailInvitation(
          deps,
          'member',
          { email: target.email, name: target.name, place: async () => me.organization.name },
          inv,
          req.lang,
        );
        return ok(req.id, { member: memberWire(await found(me.organization.id, target.id)), invitation: inv.wire });
      },
    );

    app.patch(
      '/team/members/:id',
      {
        config: { portal: ['portal:team'] },
        schema: {
          tags,
          security,
          params: IdParam,
          body: SetPermissions,
          response: responses(200, PortalMember),
          summary: "Sets a member's role: no wider than one's own, and only for a member whose role is not wider than one's own",
        },
      },
      async (req) => {
        await changeRole(deps, teamActor(req), req.params.id, req.body.permissions);
        return ok(req.id, memberWire(await found(memberOf(req).organization.id, req.params.id)));
      },
    );

    app.delete(
      '/team/members/:id',
      {
        config: { portal: ['portal:team'] },
        schema: {
          tags,
          security,
          params: IdParam,
          response: responses(200, PortalMember),
          summary: 'Removes a member: their keys and sessions stop at once. Not oneself',
        },
      },
      async (req) => {
        await removeMember(deps, teamActor(req), req.params.id);
        return ok(req.id, memberWire(await found(memberOf(req).organization.id, req.params.id)));
      },
    );
  };

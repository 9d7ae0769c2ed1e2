import {
  CreatedStaff,
  CreateStaff,
  CreateStaffToken,
  IssuedStaffToken,
  PatchStaff,
  StaffRecord,
  StaffSession,
  StaffTokenRecord,
} from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../domain/errors.ts';
import { hashOpaque, newStaffToken } from '../../domain/people/tokens.ts';
import { ok } from '../../http/envelope.ts';
import { listResponses, responses } from '../../http/schemas.ts';
import { newInvitation } from '../../people/invitation.ts';
import { mailInvitation } from '../../people/invitation-mail.ts';
import { sessionRoutes } from '../../http/session-routes.ts';
import type { Staff, StaffToken } from '../../store/staff-store.ts';
import { createStaff } from '../../usecases/staff/create-staff.ts';
import { removeStaff, setStaffRole } from '../../usecases/staff/change-staff.ts';
import { issueStaffToken, revokeStaffToken } from '../../usecases/staff/staff-tokens.ts';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const security: Array<Record<string, string[]>> = [{ staffSession: [] }, { operator: [] }];
const iso = (d: Date | null) => d?.toISOString() ?? null;
const tokenWire = (t: StaffToken) => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: iso(t.lastUsedAt),
  revokedAt: iso(t.revokedAt),
});

/** The signed-in staff person; the bootstrap token is no person (403). */
function personOf(req: FastifyRequest): { id: string; email: string } {
  const s = req.staff;
  if (s?.kind !== 'staff') throw new DomainError('auth.role_missing', { role: 'bootstrap', needed: "a staff person's own sign-in" });
  return { id: s.id, email: s.email };
}

/** Staff (docs/design/people-and-apps.md): their sign-in, the admin's management of them, and each person's own tokens. */
export const staffRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { store, secret, config, clock } = deps;
    const tags = ['operator: staff'];
    const wire = async (s: Staff) => {
      const c = await store.people.credentialsOf('staff', s.id);
      return {
        id: s.id,
        name: s.name,
        email: s.email,
        role: s.role,
        status: s.status,
        totpEnrolled: c?.totpSealed != null,
        createdAt: s.createdAt.toISOString(),
      };
    };
    const found = async (id: string) => {
      const s = await store.staff.get(id);
      if (!s) throw new DomainError('staff.not_found');
      return s;
    };

    await app.register(
      sessionRoutes(deps, {
        kind: 'staff',
        tags: ['operator: session'],
        security: [{ staffSession: [] }],
        viewSchema: StaffSession,
        view: async (id) => ({ staff: await wire(await found(id)) }),
        current: (req) => ({ ...personOf(req), sessionId: req.staffSessionId ?? null }),
      }),
    );

    app.get('/staff', { schema: { tags, security, response: listResponses(StaffRecord), summary: "The operator's staff" } }, async (req) =>
      ok(req.id, await Promise.all((await store.staff.list()).map(wire))),
    );

    app.post(
      '/staff',
      {
        schema: {
          tags,
          security,
          body: CreateStaff,
          response: responses(201, CreatedStaff),
          summary: 'Invites a staff person (admin); the invitation is shown once',
        },
      },
      async (req, reply) => {
        const inv = newInvitation(secret, config.publicUrl, 'staff', clock.now());
        const s = await createStaff(deps, req.operatorActor!, { ...req.body, email: req.body.email.toLowerCase() }, { invitation: inv });
        await mailInvitation(deps, 'staff', { email: s.email, name: s.name, place: async () => null }, inv, req.lang);
        return reply.code(201).send(ok(req.id, { staff: await wire(s), invitation: inv.wire }));
      },
    );

    app.patch(
      '/staff/:id',
      {
        schema: {
          tags,
          security,
          params: IdParam,
          body: PatchStaff,
          response: responses(200, StaffRecord),
          summary: 'Changes a role (admin); the last active admin keeps it',
        },
      },
      async (req) => ok(req.id, await wire(await setStaffRole(deps, req.operatorActor!, req.params.id, req.body.role))),
    );

    app.delete(
      '/staff/:id',
      {
        schema: {
          tags,
          security,
          params: IdParam,
          response: responses(200, StaffRecord),
          summary: 'Removes a staff person (admin): sessions and tokens stop at once',
        },
      },
      async (req) => ok(req.id, await wire(await removeStaff(deps, req.operatorActor!, req.params.id))),
    );

    app.get(
      '/tokens',
      { schema: { tags, security, response: listResponses(StaffTokenRecord), summary: "The signed-in person's own tokens" } },
      async (req) => ok(req.id, (await store.staff.tokens(personOf(req).id)).map(tokenWire)),
    );

    app.post(
      '/tokens',
      {
        schema: {
          tags,
          security,
          body: CreateStaffToken,
          response: responses(201, IssuedStaffToken),
          summary: 'A personal token (Bearer ops_…) for automation, acting as oneself; shown only here',
        },
      },
      async (req, reply) => {
        const me = personOf(req);
        const g = newStaffToken();
        const t = await issueStaffToken(deps, req.operatorActor!, me.id, {
          name: req.body.name,
          prefix: g.prefix,
          secretHash: hashOpaque(secret, 'staff_token', g.secret),
        });
        return reply.code(201).send(ok(req.id, { id: t.id, name: t.name, token: g.token, createdAt: t.createdAt.toISOString() }));
      },
    );

    app.post(
      '/tokens/:id/revoke',
      {
        schema: { tags, security, params: IdParam, response: responses(200, StaffTokenRecord), summary: "Revokes one of one's own tokens" },
      },
      async (req) => ok(req.id, tokenWire(await revokeStaffToken(deps, req.operatorActor!, personOf(req).id, req.params.id))),
    );
  };

import { Client } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { canOperate } from '../../domain/organizations/organization.ts';
import { ok } from '../envelope.ts';
import { principalOf } from '../route-config.ts';
import { apiKeySecurity, responses } from '../schemas.ts';

export const clientRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/client', {
    schema: { tags: ['client'], summary: 'The organization behind this key, and what the key may do', security: apiKeySecurity, response: responses(200, Client) },
  }, async (req) => {
    const p = principalOf(req);
    const o = p.organization;
    return ok(req.id, { id: o.id, name: o.name, status: o.status, canOperate: canOperate(o), permissions: p.permissions });
  });
};

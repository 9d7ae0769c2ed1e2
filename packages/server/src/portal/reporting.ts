import { ReportingSettings, ReportingSettingsInput } from '@cambio/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import { ok } from '../http/envelope.ts';
import { responses } from '../http/schemas.ts';
import { readReporting } from '../http/treasury/reads.ts';
import { actorOf } from '../people/accounts.ts';
import { setReporting } from '../usecases/treasury/set-reporting.ts';
import { memberOf } from './member-of.ts';

const security = [{ memberSession: [] }];

/**
 * The organization's reporting choice (docs/api-guide.md, Valuation and statements): any member reads
 * it; changing it is an organization setting, so it takes the permission that administers the
 * organization in the portal, `portal:team`.
 */
export const reportingRoutes =
  (deps: AppDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['portal: settings'];
    app.get(
      '/settings/reporting',
      {
        config: { portal: ['portal:read', 'portal:team'] },
        schema: {
          tags,
          security,
          response: responses(200, ReportingSettings),
          summary: 'The reporting currency (default USD when listed) and the language of statements',
        },
      },
      async (req) => ok(req.id, await readReporting(deps, memberOf(req).organization.id)),
    );

    app.put(
      '/settings/reporting',
      {
        config: { portal: ['portal:team'] },
        schema: {
          tags,
          security,
          body: ReportingSettingsInput,
          response: responses(200, ReportingSettings),
          summary: 'Chooses the reporting currency (a listed asset) and the language of statements; a field left out keeps its value',
        },
      },
      async (req) => {
        const me = memberOf(req);
        await setReporting(deps, actorOf('member', me.member.id), me.organization.id, req.body);
        return ok(req.id, await readReporting(deps, me.organization.id));
      },
    );
  };

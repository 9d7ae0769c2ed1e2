/**
 * What the OpenAPI document needs beyond the routes' own schemas so that Redocly's recommended rules
 * pass and client generators name their methods: every operation has an `operationId`
 * (derived from its method and path unless the route names one) and a `summary`; the document has
 * a server and a license; an operator route without `security` declares the operator token.
 */
type RouteSchema = { operationId?: string; summary?: string; security?: unknown; hide?: boolean; [k: string]: unknown };

const word = (s: string) => s.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase());
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `GET /api/v1/orders/:id/cancel` → `getOrdersByIdCancel`; operator routes start with `operator`. */
export function operationIdOf(method: string, url: string): string {
  const operator = url.startsWith('/operator/v1');
  const parts = url
    .replace(/^\/(api|operator)\/v1\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => (p.startsWith(':') ? `By${cap(word(p.slice(1)))}` : cap(word(p))));
  const id = `${method.toLowerCase()}${parts.join('')}`;
  return operator ? `operator${cap(id)}` : id;
}

export function documentRoute({ schema, url, route }: { schema: object | undefined; url: string; route: { method: string | string[] } }) {
  const method = Array.isArray(route.method) ? String(route.method[0]) : route.method;
  const s: RouteSchema = { ...((schema ?? {}) as RouteSchema) };
  s.operationId ??= operationIdOf(method, url);
  s.summary ??= `${method} ${url}`;
  if (url.startsWith('/operator/v1') && s.security === undefined) s.security = [{ operator: [] }];
  // A route that answers text (metrics) declares no response schema; the document still says what it answers.
  const responses = { ...((s.response ?? {}) as Record<string, unknown>) };
  if (!Object.keys(responses).some((c) => c.startsWith('2'))) responses['200'] = { description: 'OK (text)', type: 'string' };
  if (!Object.keys(responses).some((c) => c.startsWith('4'))) responses['4xx'] = { description: 'the error envelope', type: 'object' };
  s.response = responses;
  return { schema: s as object, url };
}

export const documentExtras = {
  servers: [{ url: 'http://127.0.0.1:8080', description: 'the service as `npm start` runs it (sandbox)' }],
  license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
};

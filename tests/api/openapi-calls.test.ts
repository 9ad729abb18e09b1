// Every call of spec §7, with the payload fields and query filters it names, is described in
// /v2/openapi.json (which is generated from the same zod schemas that validate requests). PGlite only:
// the description does not depend on the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startApp, type TestApp } from './helpers';

type Method = 'get' | 'post' | 'patch' | 'delete';
/** Spec §7, one row per method and path; `{id}` as OpenAPI writes it. */
const SPEC_CALLS: Array<[Method, string]> = [
  ['get', '/v2/studies'],
  ['get', '/v2/studies/{id}'],
  ['patch', '/v2/studies/{id}'],
  ['delete', '/v2/studies/{id}'],
  ['post', '/v2/studies'],
  ['get', '/v2/studies/tags'],
  ['get', '/v2/images'],
  ['get', '/v2/images/stats'],
  ['get', '/v2/images/{id}'],
  ['patch', '/v2/images/{id}'],
  ['get', '/v2/images/{id}/download-url'],
  ['get', '/v2/images/{id}/thumbnail/download-url'],
  ['get', '/v2/images/{id}/labels/download-url'],
  ['post', '/v2/auth/login'],
  ['post', '/v2/auth/activate-user'],
  ['post', '/v2/auth/google-login-init'],
  ['post', '/v2/auth/google-login'],
  ['get', '/v2/auth/me'],
  ['post', '/v2/auth/forgot-password'],
  ['post', '/v2/auth/app'],
  ['post', '/v2/auth/refresh'],
  ['post', '/v2/auth/change-password'],
  ['post', '/v2/auth/register-request'],
  ['get', '/v2/organs'],
  ['get', '/v2/organs/{id}'],
  ['get', '/v2/scan-groups'],
  ['post', '/v2/scan-groups'],
  ['get', '/v2/scan-groups/{id}'],
  ['patch', '/v2/scan-groups/{id}'],
  ['delete', '/v2/scan-groups/{id}'],
  ['get', '/v2/scan-orders'],
  ['get', '/v2/scan-orders/{id}'],
  ['post', '/v2/scan-order-lists'],
  ['get', '/v2/scan-order-lists'],
  ['get', '/v2/scan-order-lists/{id}'],
  ['patch', '/v2/scan-order-lists/{id}'],
  ['get', '/v2/pipelines'],
  ['get', '/v2/pipelines/{id}'],
  ['patch', '/v2/pipelines/{id}'],
  ['get', '/v2/organizations'],
  ['post', '/v2/organizations'],
  ['get', '/v2/organizations/{id}'],
  ['patch', '/v2/organizations/{id}'],
  ['get', '/v2/users'],
  ['post', '/v2/users'],
  ['get', '/v2/users/{id}'],
  ['patch', '/v2/users/{id}'],
  ['delete', '/v2/users/{id}'],
  ['get', '/v2/users/check-email'],
  ['get', '/v2/user-viewer-settings'],
  ['post', '/v2/user-viewer-settings'],
  ['patch', '/v2/user-viewer-settings/{id}'],
  ['post', '/v2/mail/send-bugs'],
  ['post', '/v2/mail/request-change'],
  ['get', '/v2/activities'],
  ['get', '/v2/predictors'],
  ['get', '/v2/predictors/{id}'],
  ['get', '/v2/annotations'],
  ['post', '/v2/alignments/rigids'],
  ['get', '/v2/alignments/rigids'],
  ['get', '/v2/alignments/rigids/{id}'],
  ['post', '/v2/reactions'],
  ['get', '/v2/reactions'],
  ['delete', '/v2/reactions/{id}'],
  ['get', '/v2/reviews'],
  ['get', '/v2/reviews/{id}'],
  ['patch', '/v2/reviews/{id}'],
  ['post', '/v2/reviews'],
  ['get', '/v2/reviews/groups'],
];

/** Query parameters §7 names ("Filters used" and the table). */
const SPEC_QUERIES: Array<[string, string[]]> = [
  [
    '/v2/scan-groups',
    [
      'creatorUserId',
      'organId',
      'animalName',
      'simpleId',
      'organizationId',
      'createdAtStart',
      'createdAtEnd',
      'storageStatus',
      'archiveAtStart',
      'archiveAtEnd',
      'id',
      'orderBy',
      'orderDirection',
      'limit',
      'page',
    ],
  ],
  ['/v2/images', ['scanGroupId', 'limit']],
  ['/v2/reviews', ['imageId', 'reviewGroupUUID', 'statuses', 'type', 'scanGroupSimpleId', 'limit', 'page']],
  [
    '/v2/studies',
    [
      'name',
      'organizationId',
      'creatorUserId',
      'animalName',
      'organId',
      'slideId',
      'tag',
      'createdAtStart',
      'createdAtEnd',
      'limit',
      'page',
    ],
  ],
  ['/v2/scan-orders', ['status']],
  ['/v2/organizations', ['parentId', 'page', 'showAsAdmin', 'limit']],
  ['/v2/users/check-email', ['email']],
  ['/v2/user-viewer-settings', ['creatorUserId', 'studyId', 'page', 'limit']],
  ['/v2/predictors', ['name']],
  ['/v2/annotations', ['imageId']],
  ['/v2/reactions', ['reactionType', 'scanGroupId', 'creatorUserId']],
  ['/v2/organs', ['limit']],
];

/** Body fields §7 names, per POST/PATCH. */
const SPEC_BODIES: Array<[Method, string, string[]]> = [
  ['post', '/v2/auth/login', ['email', 'password', 'cloudflareToken', 'nonceVal']],
  ['post', '/v2/auth/activate-user', ['token', 'password']],
  ['post', '/v2/auth/google-login', ['token', 'nonce']],
  ['post', '/v2/auth/forgot-password', ['email']],
  ['post', '/v2/auth/app', ['requiredPolicies']],
  ['post', '/v2/auth/refresh', ['token']],
  ['post', '/v2/auth/change-password', ['oldPassword', 'newPassword']],
  [
    'post',
    '/v2/scan-order-lists',
    [
      'status',
      'creatorUserId',
      'organizationId',
      'assigneeUserIds',
      'assigneeOrgIds',
      'scanOrderIds',
      'expiration',
    ],
  ],
  ['patch', '/v2/user-viewer-settings/{id}', ['viewerSettings']],
  ['post', '/v2/mail/send-bugs', ['message']],
  ['post', '/v2/studies', ['study']],
  ['patch', '/v2/studies/{id}', ['study']],
  ['post', '/v2/scan-groups', ['scanGroup']],
  ['patch', '/v2/scan-groups/{id}', ['scanGroup']],
];

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Schema {
  properties?: Record<string, unknown>;
  anyOf?: Schema[];
  oneOf?: Schema[];
}
/** Property names of a body schema, through anyOf/oneOf alternatives. */
const propertiesOf = (s: Schema | undefined): string[] =>
  s
    ? [
        ...Object.keys(s.properties ?? {}),
        ...[...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap((x) => propertiesOf(x)),
      ]
    : [];

const [pglite] = await dbTargets();

describe('/v2/openapi.json covers spec §7', () => {
  let t: TestApp;
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    t = await startApp(pglite);
    const res = await t.app.inject({ method: 'GET', url: '/v2/openapi.json' });
    expect(res.statusCode).toBe(200);
    // Routes registered as '/' under a prefix come out with a trailing slash.
    paths = Object.fromEntries(
      Object.entries(res.json().paths as Record<string, Record<string, Operation>>).map(([p, ops]) => [
        p.replace(/\/$/, ''),
        ops,
      ]),
    );
  });
  afterAll(() => t.close());

  const op = (method: Method, path: string) => paths[path]?.[method];

  it.each(SPEC_CALLS)('describes %s %s', (method, path) => {
    expect(op(method, path), `${method.toUpperCase()} ${path}`).toBeDefined();
  });

  it.each(SPEC_QUERIES)('takes the §7 filters of GET %s', (path, names) => {
    const params = (op('get', path)?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(params).toEqual(expect.arrayContaining(names));
  });

  it.each(SPEC_BODIES)('takes the §7 payload of %s %s', (method, path, names) => {
    const body = op(method, path)?.requestBody?.content['application/json']?.schema;
    expect(propertiesOf(body)).toEqual(expect.arrayContaining(names));
  });
});

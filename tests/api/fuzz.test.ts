// A generic fuzzer over every route in /v2/openapi.json, so routes added later are covered without
// touching this file: for each one it sends bad inputs derived from its own schemas (wrong types,
// unknown enum values, over-long strings, malformed ids, negative and huge numbers, too many items,
// missing fields, invalid JSON, a missing body, NUL bytes in texts and keys, JSON nested 10,000 deep)
// as a super administrator, so that validation and
// not permissions must answer. Every answer must be a 4xx with the JSON error body, never a 2xx or
// a 5xx, and no table may change its row count.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  badJsonValues,
  badTextValues,
  DEEP_LEVELS,
  deepJsonText,
  fieldsOf,
  jsonWith,
  resolve,
  setComponents,
  validValue,
  withField,
  type Schema,
} from './fuzz-inputs';
import { bearer, dbTargets, login, startApp, type TestApp } from './helpers';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}
interface Case {
  label: string;
  url: string;
  payload?: string;
  json: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Cases a route rightly accepts although its OpenAPI schema says otherwise, with the reason. Keep it
 * short: each entry is a gap between a route and its description, to be closed there.
 */
const ACCEPTED: Record<string, string> = {};

/** The OpenAPI document of the app as built now, read once to name one test per route. */
async function readSpec(): Promise<OpenApi> {
  const [pglite] = await dbTargets();
  const t = await startApp(pglite);
  try {
    const token = (await login(t.app)).access;
    const res = await t.app.inject({ method: 'GET', url: '/v2/openapi.json', headers: bearer(token) });
    return res.json() as OpenApi;
  } finally {
    await t.close();
  }
}

const spec = await readSpec();
setComponents(spec.components?.schemas);
const operations = Object.entries(spec.paths).flatMap(([path, ops]) =>
  METHODS.filter((m) => ops[m]).map((method) => ({ path, method, op: ops[method] })),
);

const preview = (v: unknown) => {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 40 ? `${text.slice(0, 37)}...(${text.length})` : text;
};

function buildUrl(
  path: string,
  pathValues: Record<string, string>,
  query: Record<string, string | string[]>,
) {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name]));
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) qs.append(k, one);
  const text = qs.toString();
  return text ? `${filled}?${text}` : filled;
}

/** Every bad request for one operation; each case is wrong in exactly one place. */
function casesFor(path: string, op: Operation): Case[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const asText = (p: Parameter) => {
    const v = validValue(p.schema);
    return Array.isArray(v) ? v.map(String) : String(v);
  };
  const goodPath = Object.fromEntries(pathParams.map((p) => [p.name, String(asText(p))]));
  const goodQuery = Object.fromEntries(queryParams.filter((p) => p.required).map((p) => [p.name, asText(p)]));
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const body = bodySchema ? resolve(bodySchema) : undefined;
  const goodBody = body ? JSON.stringify(validValue(body)) : undefined;
  const cases: Case[] = [];
  const add = (label: string, url: string, payload = goodBody, json = payload !== undefined) =>
    cases.push({ label, url, payload, json });

  for (const p of pathParams) {
    for (const bad of badTextValues(p.schema)) {
      if (typeof bad !== 'string' || bad === '') continue; // an empty segment is another route
      add(`path ${p.name}=${preview(bad)}`, buildUrl(path, { ...goodPath, [p.name]: bad }, goodQuery));
    }
  }
  for (const p of queryParams) {
    for (const bad of badTextValues(p.schema))
      add(`query ${p.name}=${preview(bad)}`, buildUrl(path, goodPath, { ...goodQuery, [p.name]: bad }));
    if (p.required) {
      const { [p.name]: _dropped, ...rest } = goodQuery;
      add(`query without ${p.name}`, buildUrl(path, goodPath, rest));
    }
  }
  if (body) {
    const url = buildUrl(path, goodPath, goodQuery);
    add('invalid JSON', url, '{"broken": ', true);
    add('empty JSON body', url, '', true);
    for (const top of [[], 'text', 42])
      if (!(body.nullable && top === null)) add(`body ${preview(top)}`, url, JSON.stringify(top));
    if (body.type === 'object' && !body.nullable) add('body null', url, 'null');
    add(`body nested ${DEEP_LEVELS} deep`, url, deepJsonText());
    const base = JSON.parse(goodBody!) as unknown;
    const deep = `deep-${crypto.randomUUID()}`;
    for (const field of fieldsOf(body)) {
      const name = field.path.join('.');
      for (const bad of badJsonValues(field.schema))
        add(`body ${name}=${preview(bad)}`, url, JSON.stringify(withField(base, body, field.path, bad)));
      add(
        `body ${name} nested ${DEEP_LEVELS} deep`,
        url,
        jsonWith(withField(base, body, field.path, deep), deep, deepJsonText()),
      );
      if (field.required)
        add(`body without ${name}`, url, JSON.stringify(withField(base, body, field.path, undefined)));
    }
  }
  return cases;
}

/** Rows per table of the public schema, in one query. */
async function rowCounts(app: FastifyInstance): Promise<Record<string, number>> {
  const tables = await app.ctx.database.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const union = tables.map((t) => `SELECT '${t.name}' AS name, count(*)::int AS n FROM "${t.name}"`);
  const rows = await app.ctx.database.query<{ name: string; n: number }>(union.join(' UNION ALL '));
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
}

const targets = await dbTargets();

describe.each(targets)('fuzzing every route on $name', (target) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startApp(target);
    token = (await login(t.app)).access;
  });
  afterAll(() => t.close());

  it('finds routes to fuzz in /v2/openapi.json', () => {
    expect(operations.length).toBeGreaterThan(10);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toContain('post /v2/reviews/');
    const reviewPost = operations.find((o) => o.method === 'post' && o.path === '/v2/reviews/')!;
    const labels = casesFor(reviewPost.path, reviewPost.op).map((c) => c.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        'invalid JSON',
        'body without review.imageId',
        'body review.imageId="not-a-uuid"',
        'body review.status="not-a-value-zz"',
      ]),
    );
    expect(labels.some((l) => l.startsWith('body review.comment="xxxx'))).toBe(true);
  });

  it.each(operations)(
    '$method $path refuses bad input with a 4xx and writes nothing',
    async ({ path, method, op }) => {
      const cases = casesFor(path, op).filter((c) => !ACCEPTED[`${method} ${path} ${c.label}`]);
      const before = await rowCounts(t.app);
      const wrong: string[] = [];
      for (const c of cases) {
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url: c.url,
          headers: { ...bearer(token), ...(c.json ? { 'content-type': 'application/json' } : {}) },
          ...(c.payload !== undefined ? { payload: c.payload } : {}),
        });
        const body = String(res.headers['content-type'] ?? '').includes('json')
          ? (res.json() as { message?: unknown })
          : {};
        if (res.statusCode < 400 || res.statusCode >= 500 || typeof body.message !== 'string')
          wrong.push(`${c.label} → ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
      const after = await rowCounts(t.app);
      const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
      expect(wrong, `${method.toUpperCase()} ${path}: ${cases.length} cases`).toEqual([]);
      expect(changed, 'tables whose row count changed').toEqual([]);
    },
  );
});

// Bad inputs generated from the API's own OpenAPI description (`/v2/openapi.json`, OpenAPI 3.0 JSON
// Schemas made from the zod schemas of src/api): a small validator of the JSON Schema subset those
// use, valid values to fill the rest of a request, and candidate values each schema must refuse.
//
// Policy beyond the schemas: every string and list the API takes must be bounded. A string field
// without maxLength refuses more than UNBOUNDED_STRING characters, a list without maxItems more
// than UNBOUNDED_ITEMS items — so a schema that forgot its bound fails the fuzzer. And the input
// rules of src/api/input.ts hold everywhere: no text with a NUL character, no JSON nested deeper
// than MAX_JSON_DEPTH (DEEP_LEVELS deep is sent).
import crypto from 'node:crypto';
import { MAX_JSON_DEPTH } from '../../src/api/input';

export type Schema = Record<string, unknown> & {
  type?: string;
  $ref?: string;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

/** How a value arrives: parsed JSON (body) or query/path text that zod coerces. */
export type Mode = 'json' | 'text';

export const UNBOUNDED_STRING = 10_000;
export const UNBOUNDED_ITEMS = 1_000;
/** A text with a NUL byte in it. */
export const WITH_NUL = 'fu\u0000zz';
/** How deep the nested JSON sent in every body field is. */
export const DEEP_LEVELS = 10_000;

/** `{"a":{"a":…1…}}`, DEEP_LEVELS deep, as text (JSON.stringify could not write it). */
export const deepJsonText = (levels = DEEP_LEVELS) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** The JSON text of `value` with the value `marker` (a string) replaced by `text`. */
export function jsonWith(value: unknown, marker: string, text: string): string {
  return JSON.stringify(value).replace(JSON.stringify(marker), text);
}

/** Whether a value breaks the input rules: a NUL in a text or a key, or nesting past MAX_JSON_DEPTH. */
function breaksInputRules(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v === 'string' && v.includes('\0')) return true;
    if (!v || typeof v !== 'object') continue;
    if (d >= MAX_JSON_DEPTH) return true;
    for (const [key, item] of Object.entries(v)) {
      if (key.includes('\0')) return true;
      stack.push([item, d + 1]);
    }
  }
  return false;
}

let components: Record<string, Schema> = {};
/** `#/components/schemas/X` references resolve against the document being fuzzed. */
export function setComponents(schemas: Record<string, Schema> | undefined): void {
  components = schemas ?? {};
}
export function resolve(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 10; i++) s = components[s.$ref.split('/').pop() ?? ''] ?? {};
  return s;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function formatOk(format: string | undefined, v: string): boolean {
  switch (format) {
    case 'uuid':
      return UUID.test(v);
    case 'date-time':
      return v.includes('T') && !Number.isNaN(Date.parse(v));
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);
    default:
      return true;
  }
}

function patternOk(pattern: string | undefined, v: string): boolean {
  if (!pattern) return true;
  try {
    return new RegExp(pattern, 'u').test(v);
  } catch {
    return true; // a pattern JavaScript cannot compile is not ours to judge
  }
}

/** Whether `schema` accepts `value` (text mode coerces numbers, booleans and lone array items). */
export function accepts(schemaIn: Schema | undefined, value: unknown, mode: Mode): boolean {
  const s = resolve(schemaIn);
  if (breaksInputRules(value)) return false;
  // OpenAPI 3.0: `nullable` admits null whatever the rest says (also next to anyOf).
  if (value === null && s.nullable === true) return true;
  if (s.anyOf && !s.anyOf.some((b) => accepts(b, value, mode))) return false;
  if (s.oneOf && !s.oneOf.some((b) => accepts(b, value, mode))) return false;
  if (s.allOf && !s.allOf.every((b) => accepts(b, value, mode))) return false;
  if (value === null) return s.type === 'null' || (!s.type && !s.enum && !s.anyOf && !s.oneOf);
  if (s.enum && !s.enum.some((e) => e === value || (mode === 'text' && String(e) === value))) return false;
  switch (s.type) {
    case 'string': {
      if (typeof value !== 'string') return false;
      if (s.minLength !== undefined && value.length < s.minLength) return false;
      if (value.length > (s.maxLength ?? UNBOUNDED_STRING)) return false;
      return formatOk(s.format, value) && patternOk(s.pattern, value);
    }
    case 'integer':
    case 'number': {
      const n = mode === 'text' && typeof value === 'string' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) return false;
      if (s.type === 'integer' && !Number.isSafeInteger(n)) return false;
      if (s.minimum !== undefined && (s.exclusiveMinimum === true ? n <= s.minimum : n < s.minimum))
        return false;
      if (s.maximum !== undefined && (s.exclusiveMaximum === true ? n >= s.maximum : n > s.maximum))
        return false;
      if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) return false;
      if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) return false;
      return true;
    }
    case 'boolean':
      return typeof value === 'boolean' || (mode === 'text' && (value === 'true' || value === 'false'));
    case 'array': {
      const list = Array.isArray(value) ? value : mode === 'text' ? [value] : undefined;
      if (!list) return false;
      if (s.minItems !== undefined && list.length < s.minItems) return false;
      if (list.length > (s.maxItems ?? UNBOUNDED_ITEMS)) return false;
      return list.every((item) => accepts(s.items, item, mode));
    }
    case 'object': {
      if (!isObject(value)) return false;
      const props = s.properties ?? {};
      if ((s.required ?? []).some((k) => value[k] === undefined)) return false;
      for (const [k, v] of Object.entries(value)) {
        if (props[k]) {
          if (!accepts(props[k], v, mode)) return false;
        } else if (s.additionalProperties === false) return false;
        else if (isObject(s.additionalProperties) && !accepts(s.additionalProperties, v, mode)) return false;
      }
      return true;
    }
    default:
      return true;
  }
}

/** A value the schema accepts: required object fields only, the first enum value, fresh uuids. */
export function validValue(schemaIn: Schema | undefined, depth = 0): unknown {
  const s = resolve(schemaIn);
  const branch = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (branch) return validValue(branch, depth);
  if (s.enum?.length) return s.enum[0];
  switch (s.type) {
    case 'string': {
      if (s.format === 'uuid') return crypto.randomUUID();
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'date') return new Date().toISOString().slice(0, 10);
      if (s.format === 'email') return 'fuzz@example.test';
      return 'f'.repeat(Math.max(s.minLength ?? 0, Math.min(s.maxLength ?? 8, 8)));
    }
    case 'integer':
    case 'number':
      return s.minimum !== undefined ? Math.ceil(s.minimum) + (s.exclusiveMinimum === true ? 1 : 0) : 1;
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => validValue(s.items, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      for (const key of s.required ?? []) out[key] = validValue(s.properties?.[key], depth + 1);
      return out;
    }
    default:
      return 'fuzz';
  }
}

const stringLength = (s: Schema) => (s.maxLength ?? UNBOUNDED_STRING) + 1;

/** Candidate JSON values for one body field; only those the schema refuses are returned. */
export function badJsonValues(schemaIn: Schema | undefined): unknown[] {
  const s = resolve(schemaIn);
  const items = resolve(s.items);
  const candidates: unknown[] = [null, true, 12345, -1, 1.5, 1e300, '', 'fuzz', 'not-a-uuid', {}, []];
  candidates.push('not-a-value-zz', 'x'.repeat(stringLength(s)), WITH_NUL, { [WITH_NUL]: 1 });
  if (s.minimum !== undefined) candidates.push(s.minimum - 1);
  if (s.maximum !== undefined) candidates.push(s.maximum + 1);
  candidates.push(2 ** 53 + 2, -(2 ** 53) - 2);
  if (s.type === 'array') {
    candidates.push(Array.from({ length: (s.maxItems ?? UNBOUNDED_ITEMS) + 1 }, () => validValue(items)));
    for (const bad of badJsonValues(items).slice(0, 4)) candidates.push([bad]);
  }
  return dedupe(candidates.filter((v) => !accepts(s, v, 'json')));
}

/** Candidate query or path texts for one parameter (an array parameter: lone items and too many). */
export function badTextValues(schemaIn: Schema | undefined): Array<string | string[]> {
  const s = resolve(schemaIn);
  const item = s.type === 'array' ? resolve(s.items) : s;
  const texts = [
    '',
    'abc',
    'not-a-uuid',
    'not-a-value-zz',
    '-1',
    '0',
    '1.5',
    '1e400',
    '99999999999999999999',
  ];
  texts.push('maybe', "a'b", 'x'.repeat(stringLength(item)), WITH_NUL);
  if (item.minimum !== undefined) texts.push(String(item.minimum - 1));
  if (item.maximum !== undefined) texts.push(String(item.maximum + 1));
  const out: Array<string | string[]> = texts.filter((v) => !accepts(s, v, 'text'));
  if (s.type === 'array') {
    const many = Array.from({ length: (s.maxItems ?? UNBOUNDED_ITEMS) + 1 }, () => String(validValue(item)));
    if (!accepts(s, many, 'text')) out.push(many);
  }
  return dedupe(out);
}

function dedupe<T>(values: T[]): T[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every field of a body schema, with its path and whether its parent requires it. */
export function fieldsOf(
  schemaIn: Schema | undefined,
  path: string[] = [],
  depth = 0,
): Array<{ path: string[]; schema: Schema; required: boolean }> {
  const s = resolve(schemaIn);
  if (depth > 5 || s.type !== 'object' || !s.properties) return [];
  return Object.entries(s.properties).flatMap(([key, child]) => [
    { path: [...path, key], schema: resolve(child), required: (s.required ?? []).includes(key) },
    ...fieldsOf(child, [...path, key], depth + 1),
  ]);
}

/**
 * A copy of `base` with the field at `path` set to `value` (or removed when `value` is undefined);
 * missing parents are filled with valid values of their schemas, so only the field is wrong.
 */
export function withField(base: unknown, root: Schema, path: string[], value: unknown): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  let node = copy;
  let schema = resolve(root);
  for (const key of path.slice(0, -1)) {
    schema = resolve(schema.properties?.[key]);
    if (!isObject(node[key])) node[key] = validValue(schema);
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

// Rules every request's input obeys whatever its route (docs/security.md "Input"): no NUL character in
// any text, no JSON nested deeper than MAX_JSON_DEPTH. One checker, used by the server on every body,
// query and path, and on the tus Upload-Metadata.

import { errorText } from './errors';

/** The deepest JSON a request may carry; the deepest real body (an annotation's shape) is about 8. */
export const MAX_JSON_DEPTH = 64;

export const InputText = {
  nul: 'must not contain a NUL character',
  tooDeep: `is nested deeper than ${MAX_JSON_DEPTH} levels`,
} as const;

/**
 * The first problem of `value` and the field holding it (e.g. "body.study.name", "must not contain a
 * NUL character"), or undefined. Walks without recursion, so no depth can overflow the stack.
 */
export function inputIssue(value: unknown, where: string): { field: string; problem: string } | undefined {
  // `field` is the outermost field holding the value: what a too-deep answer names.
  const stack: Array<{ value: unknown; path: string; field: string; depth: number }> = [
    { value, path: where, field: where, depth: 0 },
  ];
  while (stack.length) {
    const { value: v, path, field, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) return { field: path, problem: InputText.nul };
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { field, problem: InputText.tooDeep };
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    for (const [key, item] of entries) {
      const at = `${path}.${key}`;
      if (key.includes('\0')) return { field: path, problem: InputText.nul };
      stack.push({ value: item, path: at, field: depth === 0 ? at : field, depth: depth + 1 });
    }
  }
  return undefined;
}

/** The first problem of `value` as the text of a VALIDATION error: "where: what", or undefined. */
export function inputProblem(value: unknown, where: string): string | undefined {
  const issue = inputIssue(value, where);
  return issue && errorText('VALIDATION', issue);
}

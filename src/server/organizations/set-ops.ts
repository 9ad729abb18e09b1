// Set-valued fields of a PATCH (tags, assignees, policies, ...): the entity may replace a set, and
// `add`/`remove` change it relative to what is stored, so two offline edits merge. The route applies
// them to the row it read `FOR UPDATE` inside its transaction: the read-modify-write is atomic.

export interface SetOpsBody {
  add?: Partial<Record<string, string[] | undefined>>;
  remove?: Partial<Record<string, string[] | undefined>>;
}

/** `base` (the replacement if sent, else the stored set) plus `add`, minus `remove`, without duplicates. */
export function applySetOps(
  base: readonly string[],
  add: readonly string[] = [],
  remove: readonly string[] = [],
): string[] {
  const gone = new Set(remove);
  return [...new Set([...base, ...add])].filter((v) => !gone.has(v));
}

/**
 * The new values of every set field the request touches: `fields` are the set-valued fields of the
 * entity, `patch` the entity part of the body, `stored` the locked row.
 */
export function resolveSets<F extends string>(
  fields: readonly F[],
  stored: { [K in F]: readonly string[] },
  patch: Partial<Record<F, readonly string[] | undefined>>,
  ops: SetOpsBody,
): Partial<Record<F, string[]>> {
  const out: Partial<Record<F, string[]>> = {};
  for (const f of fields) {
    const replaced = patch[f];
    const add = ops.add?.[f];
    const remove = ops.remove?.[f];
    if (replaced === undefined && add === undefined && remove === undefined) continue;
    out[f] = applySetOps(replaced ?? stored[f], add, remove);
  }
  return out;
}

/** Whether two sets hold the same members (order ignored): an unchanged set is not a change. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((v) => sb.has(v));
}

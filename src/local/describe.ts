// Words for an outbox entry, for the sync status list and anything else that names a change: which
// value, of which field, on which study or slide ('Tag "urgent" on study Kidney 12'), and for a refused
// one the server's message after a colon. The entry gives the field and the value; the names of the
// rows it mentions come from the local mirror (describeEntries), so a study is named as the user knows
// it, not by its id. The words for things and fields are the product's (src/api/words.ts), shared with
// the activity feeds.
import type { SyncKind } from '../api/sync';
import { fieldWord, kindNoun, plural, withArticle } from '../api/words';
import type { LocalDb, MirrorRow, OutboxEntry } from './db';
import { kindSpec, targetOfPath } from './kinds';

/** Set fields holding ids of mirrored rows: their values are named like the rows themselves. */
const ID_SETS: Record<string, SyncKind> = {
  assigneeUserIds: 'users',
  assigneeOrgIds: 'organizations',
  assigneeIds: 'users',
  scanGroupIds: 'scan-groups',
  studyIds: 'studies',
  scanOrderIds: 'scan-orders',
  predictorIds: 'predictors',
};

/** Long values are cut here, so one change stays one line of the list. */
const VALUE_MAX = 40;

/** The name of a mirrored row, when the mirror has it. */
export type NameOf = (kind: SyncKind, id: string) => string | undefined;

const VERBS: Record<string, string> = { POST: 'Create', DELETE: 'Delete' };

/** A path outside the mirrored kinds named by its resource: '/annotations/…' → 'annotation'. */
const pathNoun = (path: string) =>
  (path.split('?')[0].split('/').find(Boolean) ?? 'change').replace(/s$/, '').replace(/-/g, ' ');

const cut = (text: string) => (text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX)}…` : text);
const quoted = (text: string) => `"${cut(text)}"`;
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How a row is called: a slide by its slide ID, a user by name or e-mail, an assay by its title. */
export function nameOfRow(
  kind: SyncKind,
  row: Record<string, unknown> | null | undefined,
): string | undefined {
  if (!row) return undefined;
  const candidates =
    kind === 'scan-groups'
      ? [row.simpleId, row.name]
      : kind === 'predictors'
        ? [row.title, row.name]
        : kind === 'users'
          ? [row.name, row.email]
          : [row.name];
  const name = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '');
  return name?.trim();
}

function valueText(value: unknown): string | undefined {
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'cleared';
  return undefined; // an object: the field alone says enough
}

function setValues(field: string, values: unknown[], nameOf: NameOf): string {
  const kind = ID_SETS[field];
  return values
    .map((v) => {
      if (typeof v !== 'string') return String(v);
      const name = kind ? nameOf(kind, v) : undefined;
      return kind ? (name ? cut(name) : withArticle(kindNoun(kind))) : quoted(v);
    })
    .join(', ');
}

/** 'Tag "urgent"', 'tags "a", "b"'; 'removing member Ana'. */
function setPart(field: string, values: unknown[], nameOf: NameOf, removing: boolean): string {
  const word = fieldWord(field);
  const noun = values.length > 1 ? plural(word) : word;
  return `${removing ? 'removing ' : ''}${noun} ${setValues(field, values, nameOf)}`;
}

function setParts(ops: unknown, nameOf: NameOf, removing: boolean): string[] {
  if (!isRecord(ops)) return [];
  return Object.entries(ops)
    .filter((e): e is [string, unknown[]] => Array.isArray(e[1]) && e[1].length > 0)
    .map(([field, values]) => setPart(field, values, nameOf, removing));
}

/**
 * One line naming what `entry` changes: 'Create study "Week 3"', 'Tag "urgent" on study Kidney 12',
 * 'Name "Kidney 13" on study Kidney 12', 'Delete slide S-0012'.
 */
export function describeEntry(entry: Pick<OutboxEntry, 'method' | 'path' | 'body'>, nameOf: NameOf): string {
  const target = targetOfPath(entry.path);
  const body = isRecord(entry.body) ? entry.body : {};
  if (!target) {
    // Outside the mirrored kinds the body still names what was made: 'Create annotation "Margin"'.
    const noun = pathNoun(entry.path);
    const inner = body[noun.replace(/ (\w)/g, (_m, c: string) => c.toUpperCase())];
    const name =
      entry.method === 'POST' && isRecord(inner) && typeof inner.name === 'string' ? inner.name.trim() : '';
    return `${VERBS[entry.method] ?? 'Change'} ${noun}${name ? ` ${quoted(name)}` : ''}`;
  }
  const { kind, entityKey } = target.spec;
  const noun = kindNoun(kind);
  const inner = isRecord(body[entityKey]) ? (body[entityKey] as Record<string, unknown>) : {};
  const known = target.id ? nameOf(kind, target.id) : undefined;
  const named = (name: string | undefined) => (name ? `${noun} ${cut(name)}` : withArticle(noun));
  if (entry.method === 'POST') {
    const name = nameOfRow(kind, inner);
    return target.id ? `Change ${named(known)}` : `Create ${noun}${name ? ` ${quoted(name)}` : ''}`;
  }
  if (entry.method === 'DELETE') return `Delete ${named(known)}`;
  const changed = [
    ...Object.entries(inner)
      .filter(([field]) => field !== 'id')
      .map(([field, value]) => [fieldWord(field), valueText(value)].filter(Boolean).join(' ')),
    ...setParts(body.add, nameOf, false),
  ];
  const removed = setParts(body.remove, nameOf, true);
  const parts = [...changed, ...removed];
  if (parts.length === 0) return `Change ${named(known)}`;
  return `${capitalized(parts.join(', '))} ${changed.length ? 'on' : 'from'} ${named(known)}`;
}

/**
 * describeEntry, and for a refused change the server's message after a colon: 'Tag "urgent" on study
 * Kidney 12: A study can have at most 30 tags'.
 */
export function describeFailure(
  entry: Pick<OutboxEntry, 'method' | 'path' | 'body' | 'state' | 'error'>,
  nameOf: NameOf,
): string {
  const what = describeEntry(entry, nameOf);
  return entry.state === 'failed' && entry.error ? `${what}: ${entry.error}` : what;
}

/** The kinds and ids an entry mentions: its target and the ids in its set operations. */
function mentions(entry: OutboxEntry): Array<[SyncKind, string]> {
  const found: Array<[SyncKind, string]> = [];
  const target = targetOfPath(entry.path);
  if (target?.id) found.push([target.spec.kind, target.id]);
  const body = isRecord(entry.body) ? entry.body : {};
  for (const ops of [body.add, body.remove])
    if (isRecord(ops))
      for (const [field, values] of Object.entries(ops))
        if (ID_SETS[field] && Array.isArray(values))
          for (const v of values) if (typeof v === 'string') found.push([ID_SETS[field], v]);
  return found;
}

/**
 * Reads from the mirror the names of the rows `entries` mention and returns each entry's describeFailure
 * line, by entry id. Every read is issued at once, so a live query (read.ts `observe`) follows them all.
 */
export function describeEntries(db: LocalDb, entries: readonly OutboxEntry[]): Promise<Map<string, string>> {
  const wanted = [
    ...new Map(entries.flatMap(mentions).map(([k, id]) => [`${k}:${id}`, [k, id] as const])).values(),
  ];
  return Promise.all(wanted.map(([kind, id]) => db.mirror(kindSpec(kind).table).get(id))).then((rows) => {
    const names = new Map<string, string | undefined>();
    wanted.forEach(([kind, id], i) => {
      const row: MirrorRow | undefined = rows[i];
      // A row rolled back or hidden still has its server copy's name in $base.
      names.set(`${kind}:${id}`, nameOfRow(kind, row) ?? nameOfRow(kind, row?.$base));
    });
    const nameOf: NameOf = (kind, id) => names.get(`${kind}:${id}`);
    return new Map(entries.map((e) => [e.id, describeFailure(e, nameOf)]));
  });
}

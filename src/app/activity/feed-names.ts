// The mirrored rows an activity feed page names — people, studies, slides, images, reviews, orders,
// organizations, catalogue entries — read by id from the local store in three batched rounds (a
// review leads to its image, an image or order to its slide), never one read per row and never a
// request to the server. The feed's sentences (sentence.ts) look things up in the result.
import type { Activity } from '../../api/entities';
import type { SyncKind } from '../../api/sync';
import type { LocalDb } from '../../local/db';
import { readRowsWhere } from '../../local/read';

type Row = Record<string, unknown>;
/** Rows by `${kind}:${id}`. */
export type FeedRows = Map<string, Row>;

const REFERENCE_KINDS: Partial<Record<string, SyncKind>> = {
  Study: 'studies',
  ScanGroup: 'scan-groups',
  Image: 'images',
  Review: 'reviews',
  ScanOrder: 'scan-orders',
  Organization: 'organizations',
  User: 'users',
  Organ: 'organs',
  Pipeline: 'pipelines',
  Predictor: 'predictors',
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

class Wanted {
  readonly ids = new Map<SyncKind, Set<string>>();
  add(kind: SyncKind, id: string | undefined): void {
    if (!id) return;
    let set = this.ids.get(kind);
    if (!set) this.ids.set(kind, (set = new Set()));
    set.add(id);
  }
}

/** The ids each page of activities names directly (its key stays the same while the rows do). */
export function namedIds(rows: readonly Activity[]): { wanted: Wanted; key: string } {
  const w = new Wanted();
  for (const a of rows) {
    const d = a.diff;
    w.add('users', a.creatorUserId ?? undefined);
    w.add('organizations', a.organizationId ?? undefined);
    const kind = REFERENCE_KINDS[a.reference];
    if (kind) w.add(kind, a.referenceId ?? undefined);
    w.add('users', str(d.reviewerId));
    w.add('images', str(d.imageId));
    w.add('studies', str(d.studyId));
    w.add('scan-groups', str(d.scanGroupId));
    if (a.reference === 'Reaction') w.add('scan-groups', str(d.referenceId));
    if (a.actionType === 'share') {
      for (const id of strs(d.assigneeUserIds)) w.add('users', id);
      for (const id of strs(d.assigneeOrgIds)) w.add('organizations', id);
    }
  }
  const key = JSON.stringify([...w.ids].map(([k, ids]) => [k, [...ids].sort()]));
  return { wanted: w, key };
}

async function readInto(db: LocalDb, out: FeedRows, kind: SyncKind, ids: Iterable<string>): Promise<void> {
  const missing = [...ids].filter((id) => !out.has(`${kind}:${id}`));
  if (!missing.length) return;
  for (const row of await readRowsWhere<Row>(db, kind, 'id', missing))
    out.set(`${kind}:${String(row.id)}`, row);
}

/** Reads what `wanted` names, then the images of its reviews, then the slides of its images and orders. */
export async function readFeedRows(db: LocalDb, wanted: Wanted): Promise<FeedRows> {
  const out: FeedRows = new Map();
  const ids = (kind: SyncKind) => wanted.ids.get(kind) ?? new Set<string>();
  await Promise.all((['reviews', 'scan-orders'] as const).map((kind) => readInto(db, out, kind, ids(kind))));
  const rowsOf = (kind: SyncKind) => [...out].filter(([k]) => k.startsWith(`${kind}:`)).map(([, row]) => row);
  const images = new Set([...ids('images'), ...rowsOf('reviews').map((r) => str(r.imageId) ?? '')]);
  await readInto(db, out, 'images', [...images].filter(Boolean));
  const slides = new Set([
    ...ids('scan-groups'),
    ...[...rowsOf('images'), ...rowsOf('scan-orders')].map((r) => str(r.scanGroupId) ?? ''),
  ]);
  const rest = [...wanted.ids.keys()].filter(
    (k) => !['reviews', 'scan-orders', 'images', 'scan-groups'].includes(k),
  );
  await Promise.all([
    readInto(db, out, 'scan-groups', [...slides].filter(Boolean)),
    ...rest.map((kind) => readInto(db, out, kind, ids(kind))),
  ]);
  return out;
}

// Activity rows as sentences about things: 'Chiara Rossi requested a review of slide Q2DTP4JV from
// Dev Patel'. Rows one action wrote together (a review request of three slides to two reviewers is
// six rows; a batch of labels is one row per slide) are grouped and read as one sentence. Things are
// named as the user knows them, from the local mirror (FeedLookup), else from what the row recorded;
// a thing with a page is a link. Field names are the product's words (src/api/words.ts). Pure, so
// tests/unit/activity/sentence.test.ts checks it without a browser.
import type { Activity } from '../../api/entities';
import { Misc } from '../../api/messages';
import type { SyncKind } from '../../api/sync';
import { entityNoun, fieldWord, plural, withArticle } from '../../api/words';
import { nameOfRow } from '../../local/describe';

/** A piece of a sentence: plain text, or a thing's name (a link when it has a page). */
export type Part = string | { text: string; href?: string };

type Row = Record<string, unknown>;

export interface FeedLookup {
  /** The signed-in user: their own actions read 'You …'. */
  meId: string;
  /** A mirrored row by kind and id, when this device holds it. */
  row(kind: SyncKind, id: string): Row | undefined;
}

/** Rows of one action are written within moments; a later row of the same shape is another action. */
export const GROUP_WINDOW_MS = 5 * 60_000;
/** Things named one by one in a grouped sentence; the rest are counted ('and 4 more'). */
const NAMED_MAX = 3;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** What makes two rows parts of one action, besides being close in time. */
function shapeOf(a: Activity): string {
  const d = a.diff;
  const base = `${a.creatorUserId}|${a.reference}|${a.actionType}`;
  if (a.reference === 'Review' && a.actionType === 'create')
    return `${base}|${str(d.reviewGroupUUID)}|${str(d.type)}`;
  if (a.actionType === 'review') return `${base}|${str(d.status)}`;
  if (a.actionType === 'share') return `${base}|${JSON.stringify([d.assigneeUserIds, d.assigneeOrgIds])}`;
  if (a.actionType === 'update') return `${base}|${Object.keys(d).sort().join(',')}`;
  if (a.actionType === 'upload') return `${base}|${str(d.scanGroupId)}`;
  return base;
}

/**
 * Consecutive rows (newest first, as the feed lists them) of the same person, kind, action and
 * shape, each within GROUP_WINDOW_MS of the group's newest, form one group.
 */
export function groupActivities(rows: readonly Activity[]): Activity[][] {
  const groups: Activity[][] = [];
  let shape = '';
  for (const a of rows) {
    const current = groups[groups.length - 1];
    const s = shapeOf(a);
    if (
      current &&
      s === shape &&
      Math.abs(Date.parse(current[0].date) - Date.parse(a.date)) <= GROUP_WINDOW_MS
    )
      current.push(a);
    else {
      groups.push([a]);
      shape = s;
    }
  }
  return groups;
}

/** A thing a sentence names: its noun, its name when known, its page when it has one. */
interface Thing {
  key: string;
  noun: string;
  /** Where adding an s to the noun is wrong ('orders for slides'). */
  nouns?: string;
  name?: string;
  href?: string;
}

function slideThing(id: string | undefined, f: FeedLookup, fallbackName?: string): Thing | undefined {
  if (!id) return undefined;
  const row = f.row('scan-groups', id);
  const name = nameOfRow('scan-groups', row) ?? fallbackName;
  return { key: `slide:${id}`, noun: 'slide', name, href: row ? `/sgviewer/${id}` : undefined };
}

/** The slide an image belongs to, else the image itself. */
function imageOrSlide(imageId: string | undefined, f: FeedLookup): Thing {
  const image = imageId ? f.row('images', imageId) : undefined;
  const slide = slideThing(str(image?.scanGroupId), f);
  if (slide) return slide;
  return {
    key: `image:${imageId ?? ''}`,
    noun: 'image',
    name: str(image?.name),
    href: image && imageId ? `/image/${imageId}` : undefined,
  };
}

/** The thing an activity is about, named as the user knows it. */
function thingOf(a: Activity, f: FeedLookup): Thing {
  const id = a.referenceId ?? '';
  const d = a.diff;
  const gone = a.actionType === 'delete';
  const named = (kind: SyncKind, noun: string, href?: string): Thing => {
    const row = id ? f.row(kind, id) : undefined;
    const name = nameOfRow(kind, row) ?? str(d.name) ?? str(d.title) ?? str(d.email) ?? str(d.simpleId);
    return { key: `${kind}:${id}`, noun, name, href: row && !gone ? href : undefined };
  };
  switch (a.reference) {
    case 'Study':
      return named('studies', 'study', `/studies/${id}`);
    case 'ScanGroup':
      return named('scan-groups', 'slide', `/sgviewer/${id}`);
    case 'Image':
      return named('images', 'image', `/image/${id}`);
    case 'Review': {
      const review = id ? f.row('reviews', id) : undefined;
      return imageOrSlide(str(review?.imageId) ?? str(d.imageId), f);
    }
    case 'Reaction':
      return slideThing(str(d.referenceId), f) ?? { key: 'slide:', noun: 'slide' };
    case 'ScanOrder': {
      const order = id ? f.row('scan-orders', id) : undefined;
      const slide = slideThing(str(order?.scanGroupId) ?? str(d.scanGroupId), f);
      return slide
        ? { ...slide, noun: 'order for slide', nouns: 'orders for slides' }
        : { key: `order:${id}`, noun: 'order' };
    }
    case 'Organization': {
      const t = named('organizations', 'organization');
      const row = id ? f.row('organizations', id) : undefined;
      return str(row?.parentId) || str(d.parentId) ? { ...t, noun: 'team' } : t;
    }
    case 'User':
      return named('users', 'user');
    case 'Organ':
      return named('organs', 'organ');
    case 'Pipeline':
      return named('pipelines', 'staining pipeline');
    case 'Predictor':
      return named('predictors', 'assay');
    case 'UserViewerSettings': {
      const studyId = str(d.studyId);
      const study = studyId ? f.row('studies', studyId) : undefined;
      return {
        key: `viewer:${studyId ?? id}`,
        noun: 'viewer settings of study',
        nouns: 'viewer settings of studies',
        name: nameOfRow('studies', study),
        href: study ? `/studies/${studyId}` : undefined,
      };
    }
    default:
      return { key: `${a.reference}:${id}`, noun: entityNoun(a.reference), name: str(d.name) };
  }
}

const link = (t: Thing): Part => (t.name ? { text: t.name, href: t.href } : '');

/** 'A', 'A and B', 'A, B and C', 'A, B, C and 4 more'. */
function listParts(items: Part[], more = 0): Part[] {
  const out: Part[] = [];
  items.forEach((item, i) => {
    if (i > 0) out.push(i === items.length - 1 && more === 0 ? ' and ' : ', ');
    out.push(item);
  });
  if (more > 0) out.push(` and ${more} more`);
  return out;
}

/**
 * 'slide Q2DTP4JV', 'slides A, B and C', '3 slides', 'a slide'; things of several nouns (reviews of
 * slides and of images not on a slide yet) each under their own: 'slide A and images b.czi and c.czi'.
 */
function thingsParts(things: Thing[]): Part[] {
  const byNoun = new Map<string, Thing[]>();
  for (const t of things) byNoun.set(t.noun, [...(byNoun.get(t.noun) ?? []), t]);
  const sets = [...byNoun.values()].map(sameNounParts);
  return sets.flatMap((parts, i) => [...(i === 0 ? [] : [i === sets.length - 1 ? ' and ' : ', ']), ...parts]);
}

function sameNounParts(things: Thing[]): Part[] {
  const distinct = [...new Map(things.map((t) => [t.key, t])).values()];
  const noun = distinct[0]?.noun ?? 'thing';
  const nouns = distinct[0]?.nouns ?? plural(noun);
  const named = distinct.filter((t) => t.name);
  if (distinct.length === 1) return named.length ? [`${noun} `, link(named[0])] : [withArticle(noun)];
  if (named.length === 0) return [`${distinct.length} ${nouns}`];
  const shown = named.slice(0, NAMED_MAX);
  return [`${nouns} `, ...listParts(shown.map(link), distinct.length - shown.length)];
}

function personName(id: string, f: FeedLookup): string {
  if (id === f.meId) return 'you';
  return nameOfRow('users', f.row('users', id)) ?? Misc.unavailableUser;
}

/** Who shared a thing is not listed among those it is shared with. */
function sharedWith(a: Activity, f: FeedLookup): Part[] {
  const users = strs(a.diff.assigneeUserIds).filter((id) => id !== a.creatorUserId);
  const orgs = strs(a.diff.assigneeOrgIds);
  const names = [
    ...users.map((id) => personName(id, f)),
    ...orgs.map((id) => nameOfRow('organizations', f.row('organizations', id)) ?? 'an organization'),
  ];
  const shown = names.slice(0, NAMED_MAX);
  return listParts(shown, names.length - shown.length);
}

/** The verb phrase and its objects for a group of rows of one action. */
function predicate(group: Activity[], f: FeedLookup): Part[] {
  const a = group[0];
  const d = a.diff;
  const things = thingsParts(group.map((x) => thingOf(x, f)));
  if (a.reference === 'Reaction')
    return [a.actionType === 'delete' ? 'removed a heart from ' : 'added a heart to ', ...things];
  if (a.reference === 'Review') {
    if (a.actionType === 'create') {
      if (d.type === 'comment') return ['commented on ', ...things];
      const reviewers = [...new Set(group.map((x) => str(x.diff.reviewerId)).filter((x) => x !== undefined))];
      const from = reviewers.length ? [' from ', ...listParts(reviewers.map((id) => personName(id, f)))] : [];
      return [`requested ${d.type === 'qc' ? 'a QC review' : 'a review'} of `, ...things, ...from];
    }
    if (a.actionType === 'review') {
      const status = str(d.status);
      if (status === 'completed') return ['completed the review of ', ...things];
      if (status === 'pending') return ['reopened the review of ', ...things];
      return [`${status ?? 'reviewed'} `, ...things];
    }
  }
  if (a.reference === 'Image') {
    if (a.actionType === 'upload') {
      const slide = slideThing(str(d.scanGroupId), f);
      return ['uploaded ', ...things, ...(slide ? [' to ', ...thingsParts([slide])] : [])];
    }
    const keys = Object.keys(d);
    if (keys.length === 1 && keys[0] === 'scanGroupId') {
      const slide = slideThing(str(d.scanGroupId), f);
      return ['linked ', ...things, ...(slide ? [' to ', ...thingsParts([slide])] : [])];
    }
    if (d.status === 'failed' && 'info' in d) return ['canceled the processing of ', ...things];
  }
  if (a.reference === 'ScanOrder' && a.actionType === 'create') {
    const slides = group.map((x) => slideThing(str(x.diff.scanGroupId), f)).filter((t) => t !== undefined);
    return ['ordered staining of ', ...(slides.length ? thingsParts(slides) : [withArticle('slide')])];
  }
  switch (a.actionType) {
    case 'create':
      return [a.reference === 'User' ? 'invited ' : 'created ', ...things];
    case 'delete':
      return ['deleted ', ...things];
    case 'archive':
      return ['archived ', ...things];
    case 'reactivate':
      return ['reactivated ', ...things];
    case 'share': {
      const whom = sharedWith(a, f);
      return whom.length ? ['shared ', ...things, ' with ', ...whom] : ['stopped sharing ', ...things];
    }
    case 'upload':
      return ['uploaded ', ...things];
    default:
      return updatePredicate(group, things, f);
  }
}

/** 'renamed a study to Kidney 13'; 'changed the tags and slides of study Kidney 12'. */
function updatePredicate(group: Activity[], things: Part[], f: FeedLookup): Part[] {
  const a = group[0];
  const d = a.diff;
  // A changed field list (annotations record the names of the fields, not their values).
  const fields = Array.isArray(d.fields) ? strs(d.fields) : Object.keys(d);
  const newName = str(d.name);
  if (fields.length === 1 && newName && group.length === 1) {
    const t = thingOf(a, f);
    return [`renamed ${withArticle(t.noun)} to `, { text: newName, href: t.href }];
  }
  const words = [...new Set(fields.map((k) => (Array.isArray(d[k]) ? plural(fieldWord(k)) : fieldWord(k))))];
  if (words.length === 0) return ['changed ', ...things];
  const status = fields.length === 1 && fields[0] === 'status' ? str(d.status) : undefined;
  return [
    'changed the ',
    ...listParts(words),
    ' of ',
    ...things,
    ...(status && group.length === 1 ? [` to ${status}`] : []),
  ];
}

/** Who did it: 'You', their name, or the product itself for what it did on its own. */
export function actorName(a: Activity, f: FeedLookup): string {
  if (!a.creatorUserId) return 'Tessera';
  if (a.creatorUserId === f.meId) return 'You';
  return nameOfRow('users', f.row('users', a.creatorUserId)) ?? Misc.unavailableUser;
}

/** The sentence for a group of rows of one action, without its subject: see actorName. */
export function describeGroup(group: Activity[], f: FeedLookup): Part[] {
  return predicate(group, f).filter((p) => p !== '');
}

/** The whole sentence as plain text ('Chiara Rossi requested a review of slide …'). */
export function sentenceText(group: Activity[], f: FeedLookup): string {
  const parts = describeGroup(group, f);
  return `${actorName(group[0], f)} ${parts.map((p) => (typeof p === 'string' ? p : p.text)).join('')}`;
}

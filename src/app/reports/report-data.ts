// What the reports read: from the server (a report is a snapshot to file, so it asks for the current
// copy, fetching every page where page*limit<count, §7), falling back to this device's local store
// when the server cannot be reached, so a report still prints offline from what is here.
import type { Image, Organ, Review, ScanGroup, Study } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { tilesPath, type LayersManifest } from '../../api/tiles';
import type { User } from '../../api/users';
import { localDb } from '../../local/db';
import { readRow, readRows } from '../../local/read';
import { api } from '../lib/api';

const PAGE = 100;

/** Every page of a list call (§7 "fetches all pages where page*limit<count"). */
export async function fetchAll<T>(path: string): Promise<T[]> {
  const sep = path.includes('?') ? '&' : '?';
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const res = await api<ListResult<T>>('GET', `${path}${sep}page=${page}&limit=${PAGE}`);
    out.push(...res.result);
    if (page * res.limit >= res.count || res.result.length === 0) return out;
  }
}

const ids = (name: string, values: readonly string[]) =>
  values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&');

/** Lists by many ids, in chunks that keep the URL short. */
async function byIds<T>(path: string, name: string, values: readonly string[], extra = ''): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += 50)
    out.push(...(await fetchAll<T>(`${path}?${ids(name, values.slice(i, i + 50))}${extra}`)));
  return out;
}

async function orLocal<T>(remote: () => Promise<T>, local: () => Promise<T>): Promise<T> {
  try {
    return await remote();
  } catch (error) {
    if (navigator.onLine) throw error;
    return local();
  }
}

export async function loadSlides(slideIds: readonly string[]): Promise<ScanGroup[]> {
  if (slideIds.length === 0) return [];
  const wanted = new Set(slideIds);
  return orLocal(
    () => byIds<ScanGroup>('/scan-groups', 'id', slideIds),
    () => readRows<ScanGroup>(localDb(), 'scan-groups', { where: (r) => wanted.has(String(r.id)) }),
  );
}

export async function loadImagesOfSlides(slideIds: readonly string[]): Promise<Image[]> {
  if (slideIds.length === 0) return [];
  const wanted = new Set(slideIds);
  const rows = await orLocal(
    () => byIds<Image>('/images', 'scanGroupId', slideIds, '&orderDirection=asc'),
    () => readRows<Image>(localDb(), 'images', { where: (r) => wanted.has(String(r.scanGroupId)) }),
  );
  return rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function loadImages(imageIds: readonly string[]): Promise<Image[]> {
  if (imageIds.length === 0) return [];
  const wanted = new Set(imageIds);
  return orLocal(
    () => byIds<Image>('/images', 'id', imageIds),
    () => readRows<Image>(localDb(), 'images', { where: (r) => wanted.has(String(r.id)) }),
  );
}

export async function loadStudy(studyId: string): Promise<Study | undefined> {
  return orLocal(
    async () => (await api<{ result: Study }>('GET', `/studies/${encodeURIComponent(studyId)}`)).result,
    () => readRow<Study>(localDb(), 'studies', studyId),
  );
}

export async function loadSlide(scanGroupId: string): Promise<ScanGroup | undefined> {
  return orLocal(
    async () =>
      (await api<{ result: ScanGroup }>('GET', `/scan-groups/${encodeURIComponent(scanGroupId)}`)).result,
    () => readRow<ScanGroup>(localDb(), 'scan-groups', scanGroupId),
  );
}

/** QC reviews of these images (§7 "imageId (also an array for QC)"). */
export async function loadQcReviewsOfImages(imageIds: readonly string[]): Promise<Review[]> {
  if (imageIds.length === 0) return [];
  const wanted = new Set(imageIds);
  return orLocal(
    () => byIds<Review>('/reviews', 'imageId', imageIds, '&type=qc'),
    () =>
      readRows<Review>(localDb(), 'reviews', {
        where: (r) => r.type === 'qc' && wanted.has(String(r.imageId)),
      }),
  );
}

/** The reviews of one group (comments included; the report separates them). */
export async function loadGroupReviews(groupId: string): Promise<Review[]> {
  return orLocal(
    () => fetchAll<Review>(`/reviews?reviewGroupUUID=${encodeURIComponent(groupId)}&orderDirection=asc`),
    () => readRows<Review>(localDb(), 'reviews', { where: (r) => r.reviewGroupUUID === groupId }),
  );
}

/** Organs and users for names: the local store has them (they are mirrored kinds). */
export async function loadNames(): Promise<{ organs: Organ[]; users: User[] }> {
  const db = localDb();
  const [organs, users] = await Promise.all([readRows<Organ>(db, 'organs'), readRows<User>(db, 'users')]);
  return { organs, users };
}

/** An image's layers (channels) from its tile manifest; none when the image is not tiled. */
export async function loadLayers(image: Image): Promise<LayersManifest['layers']> {
  if (image.status !== 'completed' || image.displayStatus !== 'completed') return [];
  try {
    const res = await fetch(tilesPath(image.id, 'layers.json'), { credentials: 'same-origin' });
    if (!res.ok) return [];
    return ((await res.json()) as LayersManifest).layers ?? [];
  } catch {
    return [];
  }
}

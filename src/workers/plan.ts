// Which uploads a drop or a pick makes (§2.6, §5): a slide of one file (.czi, .qptiff) is an upload of
// its own; a slide with a data folder (.mrxs) is one multi-file upload together with the files of that
// folder (the folder beside it named like it); anything else is refused before a byte is sent. Which
// format is which comes from src/api/slide-formats.ts. Pure, so it is tested directly.
import { UploadText } from '../api/messages';
import { extensionOf, slideFileRole } from '../api/slide-formats';
import { UploadOwnText } from '../api/uploads';

export interface PickedEntry {
  name: string;
  size: number;
  /** Path inside the dropped folder ('a/slide/Index.dat'), or the bare name for a picked file. */
  relativePath: string;
}

export interface PlannedUpload<T extends PickedEntry> {
  /** The slide's file: what the row is named after. */
  name: string;
  parts: T[];
  /** Set when the upload is refused before it starts: the row shows 'Invalid file' with this text. */
  refused?: string;
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const baseOf = (name: string) => name.slice(0, name.length - extensionOf(name).length);

export function planUploads<T extends PickedEntry>(entries: readonly T[]): PlannedUpload<T>[] {
  const plans: PlannedUpload<T>[] = [];
  const claimed = new Set<T>();
  const norm = entries.map((e) => ({ e, rel: (e.relativePath || e.name).replace(/^\/+/, '') }));

  for (const { e, rel } of norm) {
    if (slideFileRole(e.name) !== 'folderMain') continue;
    const folder = `${dirOf(rel) ? `${dirOf(rel)}/` : ''}${baseOf(e.name)}/`.toLowerCase();
    const data = norm
      .filter((n) => n.rel.toLowerCase().startsWith(folder) && slideFileRole(n.e.name) === 'folderData')
      .map((n) => n.e);
    data.forEach((d) => claimed.add(d));
    claimed.add(e);
    plans.push(
      data.length === 0
        ? { name: e.name, parts: [e], refused: UploadOwnText.mrxsNeedsFolder }
        : { name: e.name, parts: [e, ...data] },
    );
  }
  for (const { e } of norm) {
    if (claimed.has(e)) continue;
    if (slideFileRole(e.name) === 'single') plans.push({ name: e.name, parts: [e] });
    // Data files outside any .mrxs folder, and everything else, are not slides.
    else plans.push({ name: e.name, parts: [e], refused: UploadText.incompatibleFormat });
  }
  return plans;
}

/** Relative path sent to the server: the path inside the dropped folder for a group, the name alone otherwise. */
export function partPath(plan: { parts: readonly PickedEntry[] }, part: PickedEntry): string {
  if (plan.parts.length === 1) return part.name;
  const main = plan.parts[0];
  const root = dirOf(main.relativePath || main.name);
  const rel = part.relativePath || part.name;
  return root && rel.startsWith(`${root}/`) ? rel.slice(root.length + 1) : rel;
}

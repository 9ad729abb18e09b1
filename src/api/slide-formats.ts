// The slide formats Tessera takes, one descriptor each (after openslide's formats[] table). Everything
// that names a format derives from this list: the upload picker's accept list and text, the worker's
// upload planner, the server's creation check and group assembly, the download's content type, the
// reader registry (keyed by `format`) and the table in docs/formats.md. Order is detection order:
// specific vendors first, anything TIFF-generic last.

export interface SlideFormatDescriptor {
  /** The reader's key in src/server/slides/registry.ts and the `format` a slide reports. */
  format: string;
  /** Vendor and format as people call it, for the docs. */
  name: string;
  /** The slide file's extensions, lower case with the dot; the first is the one texts show. */
  extensions: readonly string[];
  /** Content type of the original file when downloaded. */
  mediaType: string;
  /**
   * Set for a slide stored as a main file plus a data folder beside it, named like the main file
   * without its extension: the extensions of that folder's files. Such a slide is one multi-file upload.
   */
  folder?: { extensions: readonly string[] };
}

export const SLIDE_FORMATS = [
  { format: 'czi', name: 'Zeiss CZI', extensions: ['.czi'], mediaType: 'application/octet-stream' },
  {
    format: 'mrxs',
    name: '3DHistech MIRAX',
    extensions: ['.mrxs'],
    mediaType: 'application/octet-stream',
    folder: { extensions: ['.dat', '.ini'] },
  },
  { format: 'qptiff', name: 'PerkinElmer/Akoya QPTIFF', extensions: ['.qptiff'], mediaType: 'image/tiff' },
] as const satisfies readonly SlideFormatDescriptor[];

export type SlideFormat = (typeof SLIDE_FORMATS)[number]['format'];

const formats: readonly SlideFormatDescriptor[] = SLIDE_FORMATS;

/** The lower-case extension of a file name with its dot ('' when it has none). */
export const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
};

/** Every slide file extension a user may pick or drop (§5). */
export const SLIDE_EXTENSIONS: readonly string[] = formats.flatMap((f) => f.extensions);

/** The format whose main file `name` is, or undefined. */
export const slideFormatOf = (name: string): SlideFormatDescriptor | undefined =>
  formats.find((f) => f.extensions.includes(extensionOf(name)));

/** Extensions of the files a folder format keeps in its data folder. */
export const FOLDER_DATA_EXTENSIONS: readonly string[] = [
  ...new Set(formats.flatMap((f) => f.folder?.extensions ?? [])),
];

/**
 * What a file is to an upload: a slide of one file ('single'), the main file of a slide with a data
 * folder ('folderMain'), a file of such a data folder ('folderData': Slidedat.ini, Data0000.dat…),
 * or no slide file at all (undefined).
 */
export type SlideFileRole = 'single' | 'folderMain' | 'folderData';

export function slideFileRole(name: string): SlideFileRole | undefined {
  const format = slideFormatOf(name);
  if (format) return format.folder ? 'folderMain' : 'single';
  return FOLDER_DATA_EXTENSIONS.includes(extensionOf(name)) ? 'folderData' : undefined;
}

/** 'a', 'a or b', 'a, b or c'. */
export const listOr = (items: readonly string[]): string =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

/** What the picker's `accept` holds. */
export const ACCEPT_ATTRIBUTE = SLIDE_EXTENSIONS.join(',');

/** The picker's line on what it takes: '.czi, .mrxs or .qptiff. For an .mrxs slide, drop the folder…'. */
export const PICKER_TEXT = [
  `${listOr(SLIDE_EXTENSIONS)}.`,
  ...formats
    .filter((f) => f.folder)
    .map(
      (f) =>
        `For an ${f.extensions[0]} slide, drop the folder holding the ${f.extensions[0]} file and its data folder.`,
    ),
].join(' ');

// MIRAX (3DHistech .mrxs) metadata: Slidedat.ini and the Index.dat record pages.
// Quirks: Index.dat opens with "01.02" and the SLIDE_ID, then two int32 roots (hierarchical, non-
// hierarchical), each pointing at a table with one int32 pointer per level / per non-hier value; a level's
// records live in a linked list of pages [count, next, count × (image index, offset, length, file no)];
// a non-hier value is one page [1, next, 0, 0, offset, length, file no]. All int32 little-endian.

import { SlideErrors } from './errors';
import { asciiz, type ByteSource } from './file';

export type Ini = Map<string, Map<string, string>>;

/** Parses an INI text: [section] lines and key = value lines; keys keep their case. */
export function parseIni(text: string): Ini {
  const ini: Ini = new Map();
  let section = new Map<string, string>();
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith(';') || line.startsWith('#')) continue;
    const head = /^\[(.+)\]$/.exec(line);
    if (head) {
      section = ini.get(head[1]) ?? new Map<string, string>();
      ini.set(head[1], section);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) section.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return ini;
}

/** A value that must be there; throws 'Corrupt MRXS Slidedat.ini: missing KEY in [SECTION]'. */
export function iniGet(ini: Ini, section: string, key: string): string {
  const v = ini.get(section)?.get(key);
  if (v === undefined) throw SlideErrors.mrxsIniKey(section, key);
  return v;
}

export function iniNum(ini: Ini, section: string, key: string, fallback?: number): number {
  const v = ini.get(section)?.get(key);
  if (v === undefined && fallback !== undefined) return fallback;
  const n = Number(v ?? iniGet(ini, section, key));
  if (!Number.isFinite(n)) throw SlideErrors.mrxsIniKey(section, key);
  return n;
}

export interface MrxsRecord {
  /** Camera image index: y * IMAGENUMBER_X + x, in level-0 image units. */
  image: number;
  offset: number;
  length: number;
  fileNo: number;
}

const INDEX_VERSION = '01.02';
const MAX_RECORDS = 50_000_000; // bounds a corrupt page count before it allocates

export class MrxsIndex {
  private constructor(
    private readonly file: ByteSource,
    private readonly hierRoot: number,
    private readonly nonhierRoot: number,
  ) {}

  static async open(file: ByteSource, slideId: string): Promise<MrxsIndex> {
    const headLen = INDEX_VERSION.length + slideId.length;
    if (file.size < headLen + 8) throw SlideErrors.mrxsIndexMagic();
    const head = await file.read(0, headLen + 8, 'MRXS', 'Index.dat header');
    if (asciiz(head, 0, INDEX_VERSION.length) !== INDEX_VERSION) throw SlideErrors.mrxsIndexMagic();
    if (asciiz(head, INDEX_VERSION.length, headLen) !== slideId) {
      throw SlideErrors.mrxsIndex('slide id does not match Slidedat.ini');
    }
    // The roots are the positions of the two int32 table pointers right after the header.
    return new MrxsIndex(file, headLen, headLen + 4);
  }

  private async i32s(position: number, count: number, what: string): Promise<Int32Array> {
    const b = await this.file.read(position, count * 4, 'MRXS', `Index.dat ${what}`);
    return new Int32Array(b.slice().buffer);
  }

  /** Follows table[slot] to a page list head [0, firstPage]; returns the first page's position. */
  private async firstPage(root: number, slot: number, what: string): Promise<number> {
    const [table] = await this.i32s(root, 1, what);
    const [list] = await this.i32s(table + 4 * slot, 1, what);
    const [zero, page] = await this.i32s(list, 2, what);
    if (zero !== 0) throw SlideErrors.mrxsIndex(`expected 0 at the start of the ${what} data pages`);
    return page;
  }

  /** Every record of hierarchical value `slot` (the zoom level, for HIER_0 "Slide zoom level"). */
  async levelRecords(slot: number): Promise<MrxsRecord[]> {
    const out: MrxsRecord[] = [];
    const seen = new Set<number>();
    for (let page = await this.firstPage(this.hierRoot, slot, `level ${slot}`); ;) {
      if (seen.has(page)) throw SlideErrors.mrxsIndex(`level ${slot} pages loop`);
      seen.add(page);
      const [count, next] = await this.i32s(page, 2, `level ${slot} page`);
      if (count < 0 || out.length + count > MAX_RECORDS)
        throw SlideErrors.mrxsIndex(`bad page length ${count}`);
      const v = await this.i32s(page + 8, count * 4, `level ${slot} records`);
      for (let i = 0; i < count; i++) {
        const [image, offset, length, fileNo] = [v[i * 4], v[i * 4 + 1], v[i * 4 + 2], v[i * 4 + 3]];
        if (image < 0 || offset < 0 || length < 0 || fileNo < 0) {
          throw SlideErrors.mrxsIndex(`negative field in level ${slot} record ${out.length}`);
        }
        out.push({ image, offset, length, fileNo });
      }
      if (next === 0) return out;
      page = next;
    }
  }

  /** The one record of non-hierarchical value `slot` (counted across all NONHIER layers in order). */
  async nonhierRecord(slot: number): Promise<Omit<MrxsRecord, 'image'>> {
    const page = await this.firstPage(this.nonhierRoot, slot, `non-hier record ${slot}`);
    const v = await this.i32s(page, 7, `non-hier record ${slot}`);
    if (v[0] < 1) throw SlideErrors.mrxsIndex(`empty non-hier record ${slot}`);
    // v[1] is the next pointer, v[2..3] are zero (v[2] is sometimes 1253 in real slides).
    return { offset: v[4], length: v[5], fileNo: v[6] };
  }
}

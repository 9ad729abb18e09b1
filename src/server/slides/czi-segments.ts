// Zeiss CZI (ZISRAW) container: segments, file header, subblock directory, attachment directory, metadata.
// Quirks: every segment is a 32-byte header (16-byte NUL-padded id, allocated size, used size) + data; the
// subblock's data starts at max(256, 16 + directory entry size) after its segment data begins; dimension
// ids are 4-byte NUL-padded ASCII; stored size < logical size marks a downscaled (pyramid) subblock.

import { SlideErrors } from './errors';
import { asciiz, le, type ByteSource as SlideFile } from './file';

const SEGMENT_HEADER = 32;

export interface CziDimension {
  start: number;
  size: number;
  /** Pixels actually stored; for X/Y smaller than `size` in pyramid subblocks. */
  storedSize: number;
}

export interface CziDirectoryEntry {
  pixelType: number;
  /** Offset of the ZISRAWSUBBLOCK segment header. */
  filePosition: number;
  compression: number;
  /** 0 none, 1 single subblock, 2 multi subblock (libCZI's SubBlockPyramidType). */
  pyramidType: number;
  dims: Record<string, CziDimension>;
}

export interface CziAttachmentEntry {
  filePosition: number;
  /** e.g. 'CZI', 'JPG', 'CZTIMS'. */
  contentFileType: string;
  /** e.g. 'Label', 'SlidePreview', 'Thumbnail'. */
  name: string;
}

export interface CziHeader {
  major: number;
  minor: number;
  directoryPosition: number;
  metadataPosition: number;
  attachmentDirectoryPosition: number;
}

/** Reads and checks a segment header; returns where its data starts and its used size. */
async function segment(file: SlideFile, offset: number, id: string): Promise<{ data: number; used: number }> {
  const h = await file.read(offset, SEGMENT_HEADER, 'CZI', `segment ${id} at byte ${offset}`);
  if (asciiz(h, 0, 16) !== id) throw SlideErrors.cziSegment(id, offset);
  const r = le(h);
  const allocated = r.i64(16);
  const used = r.i64(24) || allocated; // older writers leave UsedSize 0
  return { data: offset + SEGMENT_HEADER, used };
}

export async function readFileHeader(file: SlideFile): Promise<CziHeader> {
  if (file.size < SEGMENT_HEADER + 80) throw SlideErrors.cziMagic();
  const h = await file.read(0, SEGMENT_HEADER + 80, 'CZI', 'file header');
  if (asciiz(h, 0, 16) !== 'ZISRAWFILE') throw SlideErrors.cziMagic();
  const r = le(h.subarray(SEGMENT_HEADER));
  return {
    major: r.i32(0),
    minor: r.i32(4),
    directoryPosition: r.i64(52),
    metadataPosition: r.i64(60),
    attachmentDirectoryPosition: r.i64(72),
  };
}

/** Parses one DirectoryEntryDV at `o` of `b`; returns the entry and its byte length. */
export function parseEntry(b: Uint8Array, o: number, at: number): { entry: CziDirectoryEntry; size: number } {
  if (b[o] !== 0x44 || b[o + 1] !== 0x56) throw SlideErrors.cziBadSubblock(at, 'bad DV directory entry');
  const r = le(b);
  const count = r.i32(o + 28);
  if (count < 0 || count > 64 || o + 32 + count * 20 > b.length) {
    throw SlideErrors.cziBadSubblock(at, `bad dimension count ${count}`);
  }
  const dims: Record<string, CziDimension> = {};
  for (let i = 0; i < count; i++) {
    const d = o + 32 + i * 20;
    dims[asciiz(b, d, d + 4)] = { start: r.i32(d + 4), size: r.i32(d + 8), storedSize: r.i32(d + 16) };
  }
  return {
    entry: {
      pixelType: r.i32(o + 2),
      filePosition: r.i64(o + 6),
      compression: r.i32(o + 18),
      pyramidType: b[o + 22],
      dims,
    },
    size: 32 + count * 20,
  };
}

export async function readDirectory(file: SlideFile, position: number): Promise<CziDirectoryEntry[]> {
  if (position <= 0) throw SlideErrors.cziNoSubblocks();
  const seg = await segment(file, position, 'ZISRAWDIRECTORY');
  const head = await file.read(seg.data, 128, 'CZI', 'subblock directory');
  const count = le(head).i32(0);
  // Each entry is at least 32 bytes; the used size bounds the read so a corrupt count cannot allocate wildly.
  const body = await file.read(seg.data + 128, Math.max(0, seg.used - 128), 'CZI', 'subblock directory');
  const entries: CziDirectoryEntry[] = [];
  let o = 0;
  for (let i = 0; i < count; i++) {
    if (o + 32 > body.length) throw SlideErrors.truncated('CZI', 'subblock directory');
    const { entry, size } = parseEntry(body, o, seg.data + 128 + o);
    entries.push(entry);
    o += size;
  }
  return entries;
}

export async function readMetadataXml(file: SlideFile, position: number): Promise<string> {
  if (position <= 0) return '';
  const seg = await segment(file, position, 'ZISRAWMETADATA');
  const head = await file.read(seg.data, 8, 'CZI', 'metadata');
  const size = le(head).i32(0);
  const xml = await file.read(seg.data + 256, size, 'CZI', 'metadata XML');
  return new TextDecoder('utf-8').decode(xml);
}

export async function readAttachmentDirectory(
  file: SlideFile,
  position: number,
): Promise<CziAttachmentEntry[]> {
  if (position <= 0) return [];
  const seg = await segment(file, position, 'ZISRAWATTDIR');
  const count = le(await file.read(seg.data, 4, 'CZI', 'attachment directory')).i32(0);
  const body = await file.read(seg.data + 256, count * 128, 'CZI', 'attachment directory');
  const out: CziAttachmentEntry[] = [];
  for (let i = 0; i < count; i++) {
    const o = i * 128; // AttachmentEntryA1: "A1", 10 spare, position, part, GUID, type[8], name[80]
    out.push({
      filePosition: le(body).i64(o + 12),
      contentFileType: asciiz(body, o + 40, o + 48),
      name: asciiz(body, o + 48, o + 128),
    });
  }
  return out;
}

/** The bytes an attachment carries (a JPEG, or a whole embedded CZI for SlidePreview/Label). */
export async function readAttachmentData(file: SlideFile, position: number): Promise<Uint8Array> {
  const seg = await segment(file, position, 'ZISRAWATTACH');
  const size = le(await file.read(seg.data, 4, 'CZI', 'attachment')).i32(0);
  return file.read(seg.data + 256, size, 'CZI', 'attachment data');
}

/** The pixel bytes of one subblock, still compressed, with the entry its own header repeats. */
export async function readSubblockData(
  file: SlideFile,
  position: number,
): Promise<{ entry: CziDirectoryEntry; data: Uint8Array }> {
  const seg = await segment(file, position, 'ZISRAWSUBBLOCK');
  const head = await file.read(
    seg.data,
    Math.min(seg.used, 16 + 32 + 64 * 20, file.size - seg.data),
    'CZI',
    'subblock header',
  );
  const r = le(head);
  const metadataSize = r.i32(0);
  const dataSize = r.i64(8);
  const { entry, size } = parseEntry(head, 16, position);
  const start = seg.data + Math.max(256, 16 + size) + metadataSize;
  if (dataSize < 0) throw SlideErrors.cziBadSubblock(position, `bad data size ${dataSize}`);
  const data = await file.read(start, dataSize, 'CZI', `subblock at byte ${position}`);
  return { entry, data };
}

// Test-only CZI writer: builds ZISRAW files (header, subblocks, directory, metadata, attachments) in memory.
// Quirk: it writes just what our reader and libCZI need (no GUIDs, no subblock metadata), segments 32-byte aligned.

export interface SubblockSpec {
  /** Logical position and size in level-0 pixels; stored size defaults to the logical size. */
  x: number;
  y: number;
  w: number;
  h: number;
  storedW?: number;
  storedH?: number;
  c?: number;
  m?: number;
  s?: number;
  z?: number;
  t?: number;
  pixelType: number;
  compression: number;
  pyramidType?: number;
  /** The subblock's data bytes exactly as stored (already compressed). */
  data: Uint8Array;
}

export interface AttachmentSpec {
  name: string;
  /** 'JPG' or 'CZI'. */
  type: string;
  data: Uint8Array;
}

const pad32 = (n: number) => Math.ceil(n / 32) * 32;

class Out {
  private chunks: Uint8Array[] = [];
  size = 0;
  /** Appends one segment (header + data, padded) and returns its offset. */
  segment(id: string, data: Uint8Array): number {
    const at = this.size;
    const alloc = pad32(data.length);
    const buf = new Uint8Array(32 + alloc);
    const v = new DataView(buf.buffer);
    for (let i = 0; i < id.length; i++) buf[i] = id.charCodeAt(i);
    v.setBigInt64(16, BigInt(alloc), true);
    v.setBigInt64(24, BigInt(data.length), true);
    buf.set(data, 32);
    this.chunks.push(buf);
    this.size += buf.length;
    return at;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

function entry(sb: SubblockSpec, filePosition: number): Uint8Array {
  const dims: [string, number, number, number][] = [
    ['X', sb.x, sb.w, sb.storedW ?? sb.w],
    ['Y', sb.y, sb.h, sb.storedH ?? sb.h],
    ['C', sb.c ?? 0, 1, 1],
  ];
  if (sb.m !== undefined) dims.push(['M', sb.m, 1, 1]);
  if (sb.s !== undefined) dims.push(['S', sb.s, 1, 1]);
  if (sb.z !== undefined) dims.push(['Z', sb.z, 1, 1]);
  if (sb.t !== undefined) dims.push(['T', sb.t, 1, 1]);
  const buf = new Uint8Array(32 + dims.length * 20);
  const v = new DataView(buf.buffer);
  buf[0] = 0x44; // 'D'
  buf[1] = 0x56; // 'V'
  v.setInt32(2, sb.pixelType, true);
  v.setBigInt64(6, BigInt(filePosition), true);
  v.setInt32(18, sb.compression, true);
  buf[22] = sb.pyramidType ?? ((sb.storedW ?? sb.w) < sb.w ? 2 : 0);
  v.setInt32(28, dims.length, true);
  dims.forEach(([name, start, size, stored], i) => {
    const o = 32 + i * 20;
    buf[o] = name.charCodeAt(0);
    v.setInt32(o + 4, start, true);
    v.setInt32(o + 8, size, true);
    v.setFloat32(o + 12, start, true);
    v.setInt32(o + 16, stored, true);
  });
  return buf;
}

/** A whole CZI file. Subblocks are written in the order given, as ZEN writes mosaics. */
export function writeCzi(
  subblocks: SubblockSpec[],
  xml: string,
  attachments: AttachmentSpec[] = [],
): Uint8Array {
  const out = new Out();
  const headerData = new Uint8Array(512 - 32);
  out.segment('ZISRAWFILE', headerData); // patched below once positions are known
  const entries: Uint8Array[] = [];
  for (const sb of subblocks) {
    const at = out.size;
    const e = entry(sb, at);
    const head = Math.max(256, 16 + e.length);
    const data = new Uint8Array(head + sb.data.length);
    const v = new DataView(data.buffer);
    v.setInt32(0, 0, true);
    v.setInt32(4, 0, true);
    v.setBigInt64(8, BigInt(sb.data.length), true);
    data.set(e, 16);
    data.set(sb.data, head);
    out.segment('ZISRAWSUBBLOCK', data);
    entries.push(e);
  }
  const dirData = new Uint8Array(128 + entries.reduce((n, e) => n + e.length, 0));
  new DataView(dirData.buffer).setInt32(0, entries.length, true);
  let o = 128;
  for (const e of entries) {
    dirData.set(e, o);
    o += e.length;
  }
  const dirPos = out.segment('ZISRAWDIRECTORY', dirData);

  const xmlBytes = new TextEncoder().encode(xml);
  const metaData = new Uint8Array(256 + xmlBytes.length);
  new DataView(metaData.buffer).setInt32(0, xmlBytes.length, true);
  metaData.set(xmlBytes, 256);
  const metaPos = out.segment('ZISRAWMETADATA', metaData);

  const attEntries: Uint8Array[] = [];
  for (const a of attachments) {
    const at = out.size;
    const e = new Uint8Array(128);
    const ev = new DataView(e.buffer);
    e[0] = 0x41; // 'A'
    e[1] = 0x31; // '1'
    ev.setBigInt64(12, BigInt(at), true);
    for (let i = 0; i < a.type.length; i++) e[40 + i] = a.type.charCodeAt(i);
    for (let i = 0; i < a.name.length; i++) e[48 + i] = a.name.charCodeAt(i);
    const data = new Uint8Array(256 + a.data.length);
    new DataView(data.buffer).setInt32(0, a.data.length, true);
    data.set(e, 16);
    data.set(a.data, 256);
    out.segment('ZISRAWATTACH', data);
    attEntries.push(e);
  }
  let attDirPos = 0;
  if (attEntries.length) {
    const d = new Uint8Array(256 + attEntries.length * 128);
    new DataView(d.buffer).setInt32(0, attEntries.length, true);
    attEntries.forEach((e, i) => d.set(e, 256 + i * 128));
    attDirPos = out.segment('ZISRAWATTDIR', d);
  }

  const file = out.bytes();
  const hv = new DataView(file.buffer, 32);
  hv.setInt32(0, 1, true); // major
  hv.setBigInt64(52, BigInt(dirPos), true);
  hv.setBigInt64(60, BigInt(metaPos), true);
  hv.setBigInt64(72, BigInt(attDirPos), true);
  return file;
}

/** Minimal metadata XML: pixel size (µm) and channels with names and "#AARRGGBB" colours. */
export function cziXml(
  opts: { pixelUm?: number; channels?: { name: string; color: string }[] } = {},
): string {
  const metres = (opts.pixelUm ?? 0) * 1e-6;
  const channels = (opts.channels ?? [])
    .map((c, i) => `<Channel Id="Channel:${i}" Name="${c.name}"><Color>${c.color}</Color></Channel>`)
    .join('');
  return (
    `<ImageDocument><Metadata><Information><Image><Dimensions><Channels>${channels}</Channels>` +
    `</Dimensions></Image><Application><Name>tessera-test</Name></Application></Information>` +
    `<Scaling><Items><Distance Id="X"><Value>${metres}</Value></Distance>` +
    `<Distance Id="Y"><Value>${metres}</Value></Distance></Items></Scaling></Metadata></ImageDocument>`
  );
}

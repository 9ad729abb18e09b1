// The pyramid pack's format (src/server/processing/pack-format.ts): files put in any order and several
// at once come back byte for byte by name, in two reads for the index and one per file; a pack with a
// bad footer, a cut-off end or an index pointing outside it is refused with a PackError.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FOOTER_BYTES,
  fileReader,
  PackError,
  PackIndex,
  PackWriter,
  type ReadRange,
} from '../../src/server/processing/pack-format';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-pack-unit-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A pack of a 3 × 2 level, a 1 × 1 level, a descriptor and a manifest, put concurrently. */
async function writeSample(name: string): Promise<{ file: string; files: Map<string, Buffer> }> {
  const files = new Map<string, Buffer>();
  for (let row = 0; row < 2; row++)
    for (let col = 0; col < 3; col++)
      files.set(`rgb_files/12/${col}_${row}.jpeg`, crypto.randomBytes(100 + col * 37 + row));
  files.set('rgb_files/0/0_0.jpeg', crypto.randomBytes(5));
  files.set('c1_files/3/0_0.jpeg', crypto.randomBytes(9));
  files.set('rgb.dzi', Buffer.from('<Image/>'));
  files.set('layers.json', Buffer.from('{"layers":[]}'));
  const file = path.join(dir, name);
  const writer = await PackWriter.create(file);
  await Promise.all([...files].reverse().map(([n, b]) => writer.put(n, b)));
  const size = await writer.finish();
  expect(fs.statSync(file).size).toBe(size);
  return { file, files };
}

describe('pyramid pack format', () => {
  it('reads back every file put, with the index in two reads and a file in one', async () => {
    const { file, files } = await writeSample('round.pack');
    const reads: Array<[number, number]> = [];
    const base = fileReader(file);
    const read: ReadRange = (offset, length) => {
      reads.push([offset, length]);
      return base(offset, length);
    };
    const index = await PackIndex.read(fs.statSync(file).size, read);
    expect(reads.length).toBe(2);
    expect(reads[0]).toEqual([fs.statSync(file).size - FOOTER_BYTES, FOOTER_BYTES]);
    expect([...index.names()].sort()).toEqual([...files.keys()].sort());
    for (const [name, bytes] of files) {
      const e = index.find(name)!;
      expect(Buffer.from(await read(e.offset, e.length)).equals(bytes), name).toBe(true);
    }
    expect(reads.length).toBe(2 + files.size);
    expect(index.find('rgb_files/12/3_0.jpeg')).toBeUndefined();
    expect(index.find('rgb_files/11/0_0.jpeg')).toBeUndefined();
    expect(index.find('thumbnail.jpg')).toBeUndefined();
    expect(index.id).toMatch(/^[0-9a-f]{16}$/);
    // Another pack of the same files has another id (ETags tell them apart).
    const other = await writeSample('other.pack');
    const otherIndex = await PackIndex.read(fs.statSync(other.file).size, fileReader(other.file));
    expect(otherIndex.id).not.toBe(index.id);
  });

  it('refuses a pack with a bad footer, a cut-off end or an index outside it', async () => {
    const { file } = await writeSample('bad.pack');
    const good = fs.readFileSync(file);
    const attempt = async (bytes: Buffer) => {
      const read: ReadRange = async (offset, length) => {
        if (offset < 0 || offset + length > bytes.length) throw new PackError('read outside');
        return bytes.subarray(offset, offset + length);
      };
      return PackIndex.read(bytes.length, read);
    };
    await expect(attempt(good)).resolves.toBeInstanceOf(PackIndex);
    const badMagic = Buffer.from(good);
    badMagic.write('XXXXXXXX', good.length - FOOTER_BYTES, 'latin1');
    await expect(attempt(badMagic)).rejects.toThrow(/no pack footer/);
    await expect(attempt(good.subarray(0, good.length - 7))).rejects.toBeInstanceOf(PackError);
    await expect(attempt(good.subarray(0, 10))).rejects.toThrow(/shorter than its footer/);
    // Bytes appended after the footer: the footer is no longer at the end.
    await expect(attempt(Buffer.concat([good, Buffer.alloc(3)]))).rejects.toBeInstanceOf(PackError);
    // An index length that does not add up to the size.
    const badLength = Buffer.from(good);
    badLength.writeBigUInt64LE(1n, good.length - FOOTER_BYTES + 16);
    await expect(attempt(badLength)).rejects.toThrow(/does not match its size/);
    // A garbled index head.
    const indexOffset = Number(good.readBigUInt64LE(good.length - FOOTER_BYTES + 8));
    const garbled = Buffer.from(good);
    garbled.fill(0x7b, indexOffset + 4, indexOffset + 12);
    await expect(attempt(garbled)).rejects.toThrow(/index/);
    // A tile entry pointing past the files' bytes.
    const headLength = good.readUInt32LE(indexOffset);
    const outside = Buffer.from(good);
    outside.writeDoubleLE(indexOffset + 1000, indexOffset + 4 + headLength);
    await expect(attempt(outside)).rejects.toThrow(/outside the pack/);
  });

  it('discards a pack given up', async () => {
    const file = path.join(dir, 'given-up.pack');
    const writer = await PackWriter.create(file);
    await writer.put('rgb_files/0/0_0.jpeg', Buffer.from('x'));
    await writer.discard();
    expect(fs.existsSync(file)).toBe(false);
  });
});

// The block cache of ranged reads (src/server/storage/ranged.ts) over an object held in memory: the
// bytes of any read, the cache's byte cap, one request for concurrent reads of a block and for a run
// of missing blocks, and a cut-off object failing as a truncated file. tests/api/processing-s3-ranged
// reads real slides through it from an S3 server.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RangedSource, type FetchRange } from '../../src/server/storage/ranged';

const KiB = 1024;

/** An object in memory, answering ranges like S3 (clipped at its end), with every request logged. */
function object(bytes: Uint8Array, opts: { delayMs?: number; cutAt?: number } = {}) {
  const requests: Array<[number, number]> = [];
  const stored = opts.cutAt === undefined ? bytes : bytes.subarray(0, opts.cutAt);
  const fetch: FetchRange = async (start, end) => {
    requests.push([start, end]);
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    return stored.slice(start, Math.min(end, stored.length));
  };
  return { fetch, requests };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('ranged source', () => {
  const bytes = new Uint8Array(crypto.randomBytes(1000 * KiB + 123));

  it('answers any read with the object’s bytes, across block boundaries and at the end', async () => {
    const { fetch } = object(bytes);
    const src = new RangedSource('o', bytes.length, fetch, { blockBytes: 64 * KiB, cacheBytes: 256 * KiB });
    const reads: Array<[number, number]> = [
      [0, 16],
      [64 * KiB - 3, 10], // across one boundary
      [100 * KiB, 200 * KiB], // several blocks
      [bytes.length - 123, 123], // the short last block
      [bytes.length, 0],
    ];
    for (let i = 0; i < 200; i++) {
      const pos = crypto.randomInt(bytes.length);
      reads.push([pos, crypto.randomInt(Math.min(100 * KiB, bytes.length - pos) + 1)]);
    }
    for (const [pos, len] of reads) {
      const got = await src.read(pos, len, 'TEST', 'x');
      expect(same(got, bytes.subarray(pos, pos + len)), `${pos}+${len}`).toBe(true);
    }
  });

  it('keeps at most its byte cap, least recently used out first', async () => {
    const { fetch, requests } = object(bytes);
    const src = new RangedSource('o', bytes.length, fetch, { blockBytes: 64 * KiB, cacheBytes: 192 * KiB });
    for (let k = 0; k < 15; k++) {
      await src.read(k * 64 * KiB + 5, 10, 'TEST', 'x');
      expect(src.cached).toBeLessThanOrEqual(192 * KiB);
    }
    expect(src.cached).toBe(192 * KiB);
    // Blocks 12..14 are held: no request. Block 0 went long ago: one request.
    const before = requests.length;
    for (const k of [12, 13, 14]) await src.read(k * 64 * KiB, 64 * KiB, 'TEST', 'x');
    expect(requests.length).toBe(before);
    await src.read(0, 1, 'TEST', 'x');
    expect(requests.length).toBe(before + 1);
    // Used just now, block 13 outlives 14 and 0 as two more come in.
    await src.read(13 * 64 * KiB, 1, 'TEST', 'x');
    await src.read(5 * 64 * KiB, 1, 'TEST', 'x');
    await src.read(6 * 64 * KiB, 1, 'TEST', 'x');
    const n = requests.length;
    await src.read(13 * 64 * KiB, 1, 'TEST', 'x');
    expect(requests.length).toBe(n);
    await src.read(12 * 64 * KiB, 1, 'TEST', 'x');
    expect(requests.length).toBe(n + 1);
  });

  it('fetches a block once for concurrent reads, and a run of missing blocks in one request', async () => {
    const { fetch, requests } = object(bytes, { delayMs: 20 });
    const src = new RangedSource('o', bytes.length, fetch, { blockBytes: 64 * KiB, cacheBytes: 1024 * KiB });
    const reads = await Promise.all(
      Array.from({ length: 10 }, (_, i) => src.read(70 * KiB + i * 100, 50, 'TEST', 'x')),
    );
    reads.forEach((r, i) => expect(r).toEqual(bytes.subarray(70 * KiB + i * 100, 70 * KiB + i * 100 + 50)));
    expect(requests).toEqual([[64 * KiB, 128 * KiB]]);

    // Blocks 1 (held), 2..4 (missing), 5 (being fetched by another read), 6..7 (missing).
    requests.length = 0;
    const other = src.read(5 * 64 * KiB, 1, 'TEST', 'x');
    const wide = src.read(64 * KiB, 7 * 64 * KiB, 'TEST', 'x');
    await Promise.all([other, wide]);
    expect(requests).toEqual([
      [5 * 64 * KiB, 6 * 64 * KiB],
      [2 * 64 * KiB, 5 * 64 * KiB],
      [6 * 64 * KiB, 8 * 64 * KiB],
    ]);
    expect(same(await wide, bytes.subarray(64 * KiB, 8 * 64 * KiB))).toBe(true);
    expect(src.stats).toEqual({ requests: 4, bytesFetched: 7 * 64 * KiB });
  });

  it('reads much larger than the cache go straight to the object, cached bytes untouched', async () => {
    const { fetch, requests } = object(bytes);
    const src = new RangedSource('o', bytes.length, fetch, { blockBytes: 64 * KiB, cacheBytes: 128 * KiB });
    await src.read(0, 10, 'TEST', 'x');
    const big = await src.read(1000, 500 * KiB, 'TEST', 'x');
    expect(same(big, bytes.subarray(1000, 1000 + 500 * KiB))).toBe(true);
    expect(requests).toEqual([
      [0, 64 * KiB],
      [1000, 1000 + 500 * KiB],
    ]);
    expect(src.cached).toBe(64 * KiB);
  });

  it('fails as a truncated file past its size, or when the object is shorter than its size', async () => {
    const { fetch } = object(bytes, { cutAt: 300 * KiB });
    const src = new RangedSource('o', bytes.length, fetch, { blockBytes: 64 * KiB, cacheBytes: 256 * KiB });
    await expect(src.read(bytes.length - 10, 11, 'CZI', 'the directory')).rejects.toMatchObject({
      code: 'truncated',
      message: 'Truncated CZI file: the directory runs past the end of the file',
    });
    expect(await src.read(0, 10, 'CZI', 'x')).toEqual(bytes.subarray(0, 10));
    await expect(src.read(290 * KiB, 20 * KiB, 'CZI', 'a subblock')).rejects.toMatchObject({
      code: 'truncated',
    });
  });

  it('forgets a failed request: the next read asks again', async () => {
    let fail = true;
    const { fetch, requests } = object(bytes);
    const flaky: FetchRange = (start, end) => {
      if (fail) {
        fail = false;
        requests.push([start, end]);
        return Promise.reject(new Error('connection reset'));
      }
      return fetch(start, end);
    };
    const src = new RangedSource('o', bytes.length, flaky, { blockBytes: 64 * KiB, cacheBytes: 256 * KiB });
    await expect(src.read(10, 10, 'CZI', 'x')).rejects.toThrow('connection reset');
    expect(await src.read(10, 10, 'CZI', 'x')).toEqual(bytes.subarray(10, 20));
    expect(requests).toHaveLength(2);
  });
});

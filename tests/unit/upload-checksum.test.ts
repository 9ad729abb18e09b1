// The checksum every PATCH carries (tus checksum extension): the SHA-1 of exactly the bytes sent, also
// when the next chunk was hashed ahead, when the chunk size changed since, or when the upload resumed
// from another offset (the digest made ahead is then not used).
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { ChunkHasher } from '../../src/workers/checksum-stack';

const sha1 = (b: Uint8Array) => crypto.createHash('sha1').update(b).digest('base64');

it('answers the digest of each chunk asked for, ahead or not', async () => {
  const bytes = new Uint8Array(crypto.randomBytes(100_000));
  const file = new Blob([bytes]);
  let size = 10_000;
  const hasher = new ChunkHasher(file, () => size);
  const ask = (start: number, end: number) =>
    hasher.take(start, file.slice(start, end)).then((d) => expect(d).toBe(sha1(bytes.subarray(start, end))));

  await ask(0, 10_000); // hashes 10 000–20 000 ahead
  await ask(10_000, 20_000); // the one made ahead
  size = 30_000; // the adaptive size grew after the chunk: the one ahead (10 000 long) is not used
  await ask(20_000, 50_000);
  await ask(70_000, 100_000); // a resume from another offset
  await ask(50_000, 70_000); // and back: nothing stale is answered
  hasher.clear();
  await ask(0, 100_000);
});

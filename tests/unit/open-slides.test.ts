// The slides held open for tiles cut on demand: one open per slide however many reads, its file held
// open and closed when the slide is dropped (least recently used past MAX_OPEN, never one being read),
// and a slide that fails to open tried again on the next read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_OPEN, OpenSlides } from '../../src/server/processing/open-slides';
import type { ByteSource } from '../../src/server/slides/file';
import { LocalStorage } from '../../src/server/storage/local';

const FIXTURE = path.resolve(import.meta.dirname, '../../../shared/fixtures/czi/DAPI_GFP.czi');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-open-slides-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A local storage that counts the files it opened and the ones closed again. */
class CountingStorage extends LocalStorage {
  begun = 0;
  ended = 0;
  override async openSource(key: string): Promise<ByteSource> {
    const source = await super.openSource(key);
    this.begun++;
    const close = source.close.bind(source);
    source.close = async () => {
      this.ended++;
      await close();
    };
    return source;
  }
}

const storage = new CountingStorage(root, 0);
for (let i = 0; i <= MAX_OPEN; i++) fs.copyFileSync(FIXTURE, path.join(root, `s${i}.czi`));
const open = (i: number) => ({ storage, keys: [`s${i}.czi`], scene: 0 });
const width = (s: { levels: Array<{ width: number }> }) => Promise.resolve(s.levels[0].width);

describe('OpenSlides', () => {
  it('opens a slide once for many reads, and closes the least recently used past MAX_OPEN', async () => {
    const slides = new OpenSlides();
    const [a, b] = await Promise.all([slides.use('s0', open(0), width), slides.use('s0', open(0), width)]);
    expect(a).toBeGreaterThan(0);
    expect(b).toBe(a);
    expect([storage.begun, storage.ended]).toEqual([1, 0]); // held open between reads
    // A read in progress on s1 keeps it open while every other slide is opened after it.
    let release: () => void = () => undefined;
    const reading = slides.use('s1', open(1), () => new Promise<void>((r) => (release = r)));
    for (let i = 2; i <= MAX_OPEN; i++) await slides.use(`s${i}`, open(i), width);
    await new Promise((r) => setImmediate(r));
    expect(storage.begun).toBe(MAX_OPEN + 1);
    expect(storage.ended).toBe(1); // s0, the least recently used; not s1, being read
    release();
    await reading;
    await slides.forget('s1');
    expect(storage.ended).toBe(2);
  });

  it('tries a slide that failed to open again on the next read', async () => {
    const slides = new OpenSlides();
    const missing = { storage, keys: ['gone.czi'], scene: 0 };
    await expect(slides.use('gone', missing, width)).rejects.toThrow();
    fs.copyFileSync(FIXTURE, path.join(root, 'gone.czi'));
    await expect(slides.use('gone', missing, width)).resolves.toBeGreaterThan(0);
  });
});

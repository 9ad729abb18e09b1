// Tile-read benchmark for the slide readers: generates a big JPEG-mosaic CZI in a temp dir, then reads
// random 256² level-0 tiles with N concurrent readers and prints tiles/s and p50/p99 latency.
// Usage: npx tsx bench/slides.ts [width] [height] [concurrency] [tiles]. The temp file is deleted after.

import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openSlide } from '../src/server/slides/registry';
import { bigMosaicCzi, tempDir } from '../tests/unit/slides/gen/slides';

const [width, height, concurrency, count] = [16384, 12288, 50, 2000].map((d, i) =>
  Number(process.argv[2 + i] ?? d),
);

async function main(): Promise<void> {
  const dir = tempDir();
  try {
    let t = performance.now();
    const path = await bigMosaicCzi(dir, width, height, 512);
    console.log(`generated ${width}x${height} CZI in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const slide = await openSlide([path]);
    const cols = Math.floor(width / 256);
    const rows = Math.floor(height / 256);
    const latencies: number[] = [];
    let next = 0;
    t = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next++;
          const x = Math.floor(Math.random() * cols) * 256;
          const y = Math.floor(Math.random() * rows) * 256;
          const s = performance.now();
          await slide.readRegion(0, x, y, 256, 256);
          latencies.push(performance.now() - s);
        }
      }),
    );
    const secs = (performance.now() - t) / 1000;
    latencies.sort((a, b) => a - b);
    const q = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
    console.log(
      `${count} random level-0 tiles, ${concurrency} concurrent: ${(count / secs).toFixed(0)} tiles/s, ` +
        `p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
    );
    await slide.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();

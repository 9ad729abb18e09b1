// Pyramid benchmark: generates a 40,000 × 30,000 RGB tissue-like slide as a CZI (JPEG mosaic), a
// QPTIFF (deflate, reduced levels), an MRXS (JPEG camera images, halved levels) and a plain tiled JPEG
// TIFF, all from the same pixels; then times `writePyramid` (src/server/processing/tiler.ts) on each beside
// sharp(plain.tif).tile({size: 254, overlap: 1, layout: 'dz'}) in the same run: megapixels/s, peak
// RSS (each phase in its own child process, sampled every 100 ms), and the ratio to sharp (target ≥ 0.8).
// The `vips` phase times the vips CLI's `dzsave` of the plain TIFF (same tiles, quality 85) as a second
// baseline, when the CLI is installed (apt-get install libvips-tools), else says it is skipped.
// Each phase writes its pyramid into one file (--sink pack, the default: the readers into the pack
// processing stores, libvips into a zip) or as loose files (--sink folder).
// Usage: npx tsx bench/pyramid.ts [--size 40000x30000] [--only sharp,vips,czi,qptiff,mrxs] [--rounds N]
//        [--sink pack|folder] [--profile] [--keep]
//        [--dir <folder to keep and reuse the generated slides in; only the phases' missing slides are made>]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { openSlide } from '../src/server/slides/registry';
import { TILE_JPEG } from '../src/server/processing/tile-jpeg';
import { PackIndex, PackWriter, fileReader } from '../src/server/processing/pack-format';
import { tuneSharpForPyramids, writePyramid } from '../src/server/processing/tiler';
import { runChild, type ChildRun } from './lib/children';
import { SLIDE_FILES, slidesIn, type SlideFile } from './lib/make-slides';
import { flags, loadLine, machine } from './lib/server';

const SELF = fileURLToPath(import.meta.url);
const TARGET_RATIO = 0.8;

interface PhaseResult {
  seconds: number;
  /** CPU time of the whole child (all threads: main, libuv pool, libvips). */
  cpuSeconds: number;
  tiles: number;
  levels: number;
  bytes: number;
}

/** JPEG tiles and their bytes under a directory (sharp also leaves a vips-properties.xml there). */
function walk(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.jpeg')) continue;
    files++;
    bytes += fs.statSync(path.join(e.parentPath, e.name)).size;
  }
  return { files, bytes };
}

/** JPEG tiles and their bytes in a zip (vips dzsave's and sharp's single-file container). */
function zipTiles(file: string): { files: number; bytes: number; levels: number } {
  const buf = fs.readFileSync(file);
  // End of central directory (no comment): the entries' count and the directory's offset.
  const eocd = buf.length - 22;
  if (buf.readUInt32LE(eocd) !== 0x06054b50) throw new Error(`${file}: no zip end record`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  let files = 0;
  let bytes = 0;
  const levels = new Set<string>();
  for (let i = 0; i < count; i++) {
    const nameLen = buf.readUInt16LE(at + 28);
    let size = buf.readUInt32LE(at + 20);
    if (size === 0xffffffff) {
      // Zip64 (libgsf writes it): the sizes in the extra field 0x0001, uncompressed first when it is too.
      const extra = at + 46 + nameLen;
      for (let e = extra; e < extra + buf.readUInt16LE(at + 30); e += 4 + buf.readUInt16LE(e + 2))
        if (buf.readUInt16LE(e) === 1)
          size = Number(buf.readBigUInt64LE(e + 4 + (buf.readUInt32LE(at + 24) === 0xffffffff ? 8 : 0)));
    }
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    if (name.endsWith('.jpeg')) {
      files++;
      bytes += size;
      levels.add(name.split('/').at(-2)!);
    }
    at += 46 + nameLen + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return { files, bytes, levels: levels.size };
}

/** JPEG tiles and their bytes in a pyramid pack (pack-format.ts). */
async function packTiles(file: string): Promise<{ files: number; bytes: number; levels: number }> {
  const index = await PackIndex.read(fs.statSync(file).size, fileReader(file));
  let files = 0;
  let bytes = 0;
  const levels = new Set<string>();
  for (const name of index.names())
    if (name.endsWith('.jpeg')) {
      files++;
      bytes += index.find(name)!.length;
      levels.add(name.split('/').at(-2)!);
    }
  return { files, bytes, levels: levels.size };
}

/** Tiles, bytes and levels of a phase's output in `out` (a folder of loose files, a zip or a pack). */
async function outputOf(out: string, sink: Sink): Promise<{ files: number; bytes: number; levels: number }> {
  if (sink === 'folder') {
    const levels = fs.readdirSync(path.join(out, 'rgb_files')).filter((d) => /^\d+$/.test(d)).length;
    return { ...walk(path.join(out, 'rgb_files')), levels };
  }
  const zip = path.join(out, 'rgb.zip');
  return fs.existsSync(zip) ? zipTiles(zip) : packTiles(path.join(out, 'rgb.pack'));
}

/** Where every phase writes: one container file per pyramid (the product's pack; a zip for libvips), or loose files. */
type Sink = 'pack' | 'folder';

/** The child side: one phase, timed, its result sent to the parent. */
async function child(phase: string, input: string, out: string, sink: Sink): Promise<void> {
  const t = performance.now();
  if (phase === 'sharp') {
    // The product's tile settings (quality 85, Huffman tables not optimised: sharp's default optimises).
    await sharp(input, { limitInputPixels: false })
      .jpeg(TILE_JPEG)
      .tile({ size: 254, overlap: 1, layout: 'dz' })
      .toFile(path.join(out, sink === 'pack' ? 'rgb.zip' : 'rgb'));
  } else {
    // As the server's pyramid child does.
    tuneSharpForPyramids();
    const slide = await openSlide([input]);
    // TESSERA_TILER: another tiler module to time instead (e.g. an older version, to compare).
    const tiler = process.env.TESSERA_TILER
      ? ((await import(process.env.TESSERA_TILER)) as { writePyramid: typeof writePyramid })
      : { writePyramid };
    try {
      if (sink === 'folder') await tiler.writePyramid(slide, out);
      else {
        const pack = await PackWriter.create(path.join(out, 'rgb.pack'));
        await tiler.writePyramid(slide, pack);
        await pack.finish();
      }
    } finally {
      await slide.close();
    }
  }
  const seconds = (performance.now() - t) / 1000;
  const { files, bytes, levels } = await outputOf(out, sink);
  const cpu = process.cpuUsage();
  const result: PhaseResult = {
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    tiles: files,
    levels,
    bytes,
  };
  process.send!(result, () => process.exit(0));
}

async function main(): Promise<void> {
  const f = flags();
  const [width, height] = String(f.get('size') ?? '40000x30000')
    .split('x')
    .map(Number);
  const phases = String(f.get('only') ?? 'sharp,vips,czi,qptiff,mrxs').split(',');
  console.log(`pyramid bench, ${new Date().toISOString()}, ${machine()}`);
  console.log(loadLine());
  // --dir keeps the generated slides there and reuses them on the next run of the same size.
  const reuse = typeof f.get('dir') === 'string' ? String(f.get('dir')) : undefined;
  const dir = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-pyramid-'));
  try {
    const t = performance.now();
    let last = 0;
    const { slides, made } = await slidesIn(dir, width, height, phases.map(fileOf), (done, total) => {
      if (performance.now() - last < 10_000 && done < total) return;
      last = performance.now();
      console.log(`  generating: ${done}/${total} tiles`);
    });
    const mib = (p: string) => {
      const folder = p.replace(/\.mrxs$/, '');
      const bytes = p.endsWith('.mrxs')
        ? fs.readdirSync(folder).reduce((n, name) => n + fs.statSync(path.join(folder, name)).size, 0)
        : fs.statSync(p).size;
      return (bytes / 2 ** 20).toFixed(0);
    };
    console.log(
      `slides ${width}×${height}` +
        (made.length
          ? ` (${made.join(', ')} made in ${((performance.now() - t) / 1000).toFixed(0)} s)`
          : '') +
        `: ${[...new Set(phases.map(fileOf))].map((file) => `${file} ${mib(slides[file]!)} MiB`).join(', ')}`,
    );
    const mp = (width * height) / 1e6;
    // --rounds N runs the phases N times in turn; each phase's median is compared, so that a burst of
    // other work on the shared cores during one phase does not decide a ratio.
    const rounds = Number(f.get('rounds') ?? 1);
    const sink = (f.get('sink') ?? 'pack') as Sink;
    if (sink !== 'pack' && sink !== 'folder') throw new Error('--sink is pack or folder');
    console.log(
      sink === 'pack'
        ? 'each pyramid in one file: the readers into a pack (as processing stores it), libvips into a zip'
        : 'each pyramid as loose files in a folder',
    );
    const rows = new Map<string, Array<{ mps: number; peak: number; r: PhaseResult }>>();
    const line = (phase: string, r: PhaseResult, peak: number, note = '') =>
      console.log(
        `${phase.padEnd(7)} ${r.seconds.toFixed(1).padStart(7)} s ${(mp / r.seconds).toFixed(1).padStart(7)} MP/s ` +
          `cpu ${r.cpuSeconds.toFixed(1).padStart(6)} s (${(mp / r.cpuSeconds).toFixed(1)} MP per cpu-s)  ` +
          `peak RSS ${peak.toFixed(0).padStart(5)} MiB  ${r.tiles} tiles in ${r.levels} levels, ` +
          `${(r.bytes / 2 ** 20).toFixed(0)} MiB${note}`,
      );
    for (let round = 1; round <= rounds; round++) {
      if (rounds > 1) console.log(`round ${round} of ${rounds}, ${loadLine()}`);
      for (const phase of phases) {
        const out = path.join(dir, `out-${phase}`);
        fs.rmSync(out, { recursive: true, force: true });
        fs.mkdirSync(out);
        const run =
          phase === 'vips'
            ? await runVips(slides.tiff!, out, sink)
            : await runChild<PhaseResult>(SELF, ['--child', phase, slides[fileOf(phase)]!, out, sink], {
                profile: f.has('profile') && phase !== 'sharp',
              });
        if (!run) {
          console.log('vips    skipped: no vips CLI');
          continue;
        }
        const r = run.result;
        rows.set(phase, [...(rows.get(phase) ?? []), { mps: mp / r.seconds, peak: run.peakRssMiB, r }]);
        line(phase, r, run.peakRssMiB);
        if (run.profile) for (const l of run.profile) console.log(`    ${l}`);
        // Outputs are deleted only at the end: ext4 makes files slowly for a minute or more after
        // thousands were deleted in the same place, which would slow whichever phase ran next.
        fs.renameSync(out, path.join(dir, `done-${phase}-${round}`));
      }
    }
    for (const name of fs.readdirSync(dir))
      if (name.startsWith('done-')) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    // Each phase's median run (by seconds; its CPU and memory are that run's).
    const median = new Map(
      [...rows].map(([phase, runs]) => {
        const sorted = [...runs].sort((a, b) => a.r.seconds - b.r.seconds);
        return [phase, sorted[(sorted.length - 1) >> 1]] as const;
      }),
    );
    if (rounds > 1) {
      console.log(`medians of ${rounds} rounds:`);
      for (const [phase, m] of median)
        line(phase, m.r, Math.max(...rows.get(phase)!.map((x) => x.peak)), ' (peak of all rounds)');
    }
    // Each reader against each libvips baseline of the same run (sharp().tile(), vips dzsave).
    const isBase = (phase: string) => phase === 'sharp' || phase === 'vips';
    for (const [basePhase, base] of [...median].filter(([p]) => isBase(p)))
      for (const [phase, x] of [...median].filter(([p]) => !isBase(p))) {
        const ratio = x.mps / base.mps;
        const cpuRatio = base.r.cpuSeconds / x.r.cpuSeconds;
        console.log(
          `ratio ${phase} / ${basePhase}: ${ratio.toFixed(2)} of the rate (target ≥ ${TARGET_RATIO}: ` +
            `${ratio >= TARGET_RATIO ? 'met' : 'missed'}); ${cpuRatio.toFixed(2)} of the work per CPU-second`,
        );
      }
    console.log(loadLine());
  } finally {
    if (reuse || f.has('keep')) console.log(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The generated slide a phase reads: sharp and vips read the plain TIFF, the others their own format. */
function fileOf(phase: string): SlideFile {
  const file = phase === 'sharp' || phase === 'vips' ? 'tiff' : phase;
  if (phase === 'tiff' || !(SLIDE_FILES as string[]).includes(file))
    throw new Error(`unknown phase ${phase}: use sharp, vips, czi, qptiff or mrxs`);
  return file as SlideFile;
}

/** `vips dzsave` of `tiff` into `out`, timed by GNU time (wall, CPU, peak RSS); undefined without vips. */
async function runVips(tiff: string, out: string, sink: Sink): Promise<ChildRun<PhaseResult> | undefined> {
  if (spawnSync('vips', ['--version']).status !== 0) return undefined;
  const args = [
    '-f',
    '%e %U %S %M',
    'vips',
    'dzsave',
    tiff,
    path.join(out, sink === 'pack' ? 'rgb.zip' : 'rgb'),
  ];
  args.push('--tile-size', '254', '--overlap', '1', '--suffix', '.jpeg[Q=85]');
  const run = spawnSync('/usr/bin/time', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`vips dzsave failed: ${run.stderr}`);
  const [seconds, user, sys, maxKb] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  const { files, bytes, levels } = await outputOf(out, sink);
  return {
    result: { seconds, cpuSeconds: user + sys, tiles: files, levels, bytes },
    peakRssMiB: maxKb / 1024,
  };
}

if (process.argv[2] === '--child')
  await child(process.argv[3], process.argv[4], process.argv[5], process.argv[6] as Sink);
else await main();

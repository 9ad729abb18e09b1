// `npm run bench -- <name> [flags]`: runs one benchmark of bench/ (each prints its own figures and
// its same-run baseline); with no name, lists them. Flags go to the bench unchanged.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCHES: Record<string, string> = {
  'api-lists':
    'scan-group and study list calls at 50 clients, PostgreSQL and PGlite, 100k/20k/200k rows (--small, --scale, --duration, --db, --try-indexes, --plans)',
  pyramid:
    'DZI pyramid of a generated 40,000 × 30,000 slide (CZI, QPTIFF) vs sharp .tile() on a plain TIFF (--size WxH, --only, --profile, --keep)',
  'first-tile':
    'upload end → viewable → first full-resolution tile over HTTP, generated 20k×15k and 40k×30k CZI and QPTIFF (--sizes, --only, --db, --dir, --wait)',
  'processing-load':
    'list API p50/p99 at N clients idle vs while a generated 20k×15k CZI/QPTIFF pyramid is written (--dir, --size, --only, --clients, --seconds, --db)',
  tiles: 'random tiles of a processed slide through the server at 50 clients (--size, --duration, --db)',
  slides: 'raw reader tile reads of a big CZI (positional: width height concurrency tiles)',
  offline: 'offline-first sync, first paint and replay in Chromium (needs npm run build)',
  'cold-load':
    'full page loads of the slides, study, reviews, reviewer and viewer pages from the local store vs emptied, in Chromium (--loads, --pages, --steps; needs npm run build)',
  annotations:
    'an image with 1,000 and 10,000 regions in Chromium: frame times while panning, load of the set, the list (--counts, --pan-ms, --loads; needs npm run build)',
  uploads:
    'one file through the real uploader in Chromium vs curl -T, with memory (positional: MiB, small MiB; needs npm run build)',
};

const dir = path.dirname(fileURLToPath(import.meta.url));
const [name, ...args] = process.argv.slice(2);

if (!name || !BENCHES[name]) {
  if (name) console.error(`No bench named "${name}".\n`);
  console.log('Usage: npm run bench -- <name> [flags]\n');
  for (const [n, what] of Object.entries(BENCHES)) console.log(`  ${n.padEnd(10)} ${what}`);
  process.exit(name ? 1 : 0);
}

const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, `${name}.ts`), ...args], {
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// The page's hottest functions in a CPU profile (Chrome DevTools protocol), named by their source
// file and line through the build's source maps, so a profile of the minified app reads as our code.
import fs from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer } from 'source-map-js';

export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** Maps a position in a built asset to `src/...:line (name)`; the asset's name when it has no map. */
function resolver(distDir: string) {
  const maps = new Map<string, SourceMapConsumer | null>();
  const mapOf = (file: string) => {
    if (!maps.has(file)) {
      const at = path.join(distDir, 'assets', `${file}.map`);
      maps.set(
        file,
        fs.existsSync(at) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(at, 'utf8'))) : null,
      );
    }
    return maps.get(file) ?? null;
  };
  return (frame: CpuProfile['nodes'][number]['callFrame']): string => {
    const file = frame.url.split('/').pop() ?? '';
    const fallback = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber}`;
    const map = file ? mapOf(file) : null;
    if (!map || frame.lineNumber < 0) return fallback;
    const pos = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
    if (!pos.source) return fallback;
    const source = pos.source.replace(/^(\.\.\/)+/, '');
    return `${pos.name ?? frame.functionName ?? '(anonymous)'} ${source}:${pos.line}`;
  };
}

/** Prints the `top` functions by self time, in ms. */
export function printHotspots(
  profile: CpuProfile,
  label: string,
  wallMs: number,
  distDir: string,
  top = 20,
): void {
  const name = resolver(distDir);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const key = name(node.callFrame);
    byName.set(key, (byName.get(key) ?? 0) + (self.get(node.id) ?? 0) / 1000);
  }
  console.log(`page main thread, ${label} (${wallMs} ms wall):`);
  for (const [fn, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${fn}`);
}

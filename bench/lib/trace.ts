// A Chrome trace (DevTools protocol `Tracing`, the devtools.timeline categories) of one measured step,
// summarised as the page's main-thread tasks between two user-timing marks: how long each task took and
// how much of it was script, style, layout (forced layouts named by the script line that asked for
// them, through the build's source maps), paint and GC. The CPU profile (hotspots.ts) names script
// only; this shows the browser's own work, which a profile lumps into "(program)".
import fs from 'node:fs';
import path from 'node:path';
import type { CDPSession } from '@playwright/test';
import { SourceMapConsumer } from 'source-map-js';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; beginData?: { stackTrace?: Frame[] }; data?: { stackTrace?: Frame[] } };
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack',
  'blink.user_timing',
  'toplevel',
  'v8.execute',
  'disabled-by-default-v8.gc',
].join(',');

/** Starts tracing; the returned function stops it and gives the events. */
export async function startTrace(session: CDPSession): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  const collect = (e: { value: object[] }) => void events.push(...(e.value as TraceEvent[]));
  session.on('Tracing.dataCollected', collect);
  await session.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  return async () => {
    const complete = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
    await session.send('Tracing.end');
    await complete;
    session.off('Tracing.dataCollected', collect);
    return events;
  };
}

/** `src/...:line` of a built asset's position, through its source map. */
function sourceNamer(distDir: string) {
  const maps = new Map<string, SourceMapConsumer | null>();
  return (f: Frame): string => {
    const file = f.url.split('/').pop() ?? '';
    if (!maps.has(file)) {
      const at = path.join(distDir, 'assets', `${file}.map`);
      maps.set(
        file,
        fs.existsSync(at) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(at, 'utf8'))) : null,
      );
    }
    const map = maps.get(file);
    const pos = map?.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
    if (!pos?.source) return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber}`;
    return `${pos.name ?? f.functionName} ${pos.source.replace(/^(\.\.\/)+/, '')}:${pos.line}`;
  };
}

const KINDS: Record<string, string> = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  TimerFire: 'script',
  EventDispatch: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  'v8.callFunction': 'script',
  'V8.Execute': 'script',
  UpdateLayoutTree: 'style',
  RecalculateStyles: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  UpdateLayer: 'paint',
  Commit: 'paint',
  MinorGC: 'gc',
  MajorGC: 'gc',
  'V8.GC_SCAVENGER': 'gc',
  'V8.GC_MARK_COMPACTOR': 'gc',
};

/**
 * Prints the main-thread tasks of the renderer that holds `fromMark` that overlap [fromMark, toMark]:
 * start (ms after `fromMark`), duration and the time of each kind (outermost event of a kind only, so
 * script inside script is not counted twice; layout inside script is counted in both), then the
 * layouts and style recalculations script forced, by the line that forced them.
 */
export function printTrace(events: TraceEvent[], fromMark: string, toMark: string, distDir: string): void {
  const from = events.find((e) => e.name === fromMark);
  const to = events.find((e) => e.name === toMark && e.pid === from?.pid);
  if (!from || !to) return console.log(`trace: marks ${fromMark}/${toMark} not found`);
  const main = events.find(
    (e) =>
      e.ph === 'M' && e.name === 'thread_name' && e.pid === from.pid && e.args?.name === 'CrRendererMain',
  );
  const onMain = events
    .filter(
      (e) => e.pid === from.pid && e.tid === (main?.tid ?? from.tid) && e.ph === 'X' && e.dur !== undefined,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Outermost tasks only (the scheduler's task and the task it runs are both traced).
  const tasks = onMain
    .filter(
      (e) =>
        (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') &&
        e.ts + (e.dur ?? 0) > from.ts &&
        e.ts < to.ts,
    )
    .filter(
      (e, i, all) => !all.some((o, j) => j < i && o.ts <= e.ts && o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0)),
    );
  const name = sourceNamer(distDir);
  const ms = (us: number) => (us / 1000).toFixed(1);
  console.log(`trace ${fromMark} → ${toMark}: ${ms(to.ts - from.ts)} ms, ${tasks.length} main-thread tasks`);
  const totals: Record<string, number> = {};
  const forced = new Map<string, { n: number; us: number }>();
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    const kinds: Record<string, number> = {};
    const openUntil: Record<string, number> = {};
    for (const e of inside) {
      const kind = KINDS[e.name];
      if (!kind) continue;
      if ((openUntil[kind] ?? 0) > e.ts) continue; // nested in an event of the same kind
      openUntil[kind] = e.ts + (e.dur ?? 0);
      kinds[kind] = (kinds[kind] ?? 0) + (e.dur ?? 0);
      const stack = e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace;
      if ((kind === 'layout' || kind === 'style') && stack?.length) {
        const key = `${kind} ← ${stack.slice(0, 3).map(name).join(' ← ')}`;
        const f = forced.get(key) ?? { n: 0, us: 0 };
        forced.set(key, { n: f.n + 1, us: f.us + (e.dur ?? 0) });
      }
    }
    if ((task.dur ?? 0) < 1000) continue;
    for (const [k, v] of Object.entries(kinds)) totals[k] = (totals[k] ?? 0) + v;
    const parts = Object.entries(kinds)
      .filter(([, v]) => v >= 500)
      .map(([k, v]) => `${k} ${ms(v)}`)
      .join(', ');
    console.log(`  +${ms(task.ts - from.ts).padStart(6)} ms  ${ms(task.dur ?? 0).padStart(6)} ms  ${parts}`);
  }
  console.log(
    `  tasks ≥ 1 ms: ${Object.entries(totals)
      .map(([k, v]) => `${k} ${ms(v)} ms`)
      .join(', ')}`,
  );
  for (const [key, f] of [...forced].sort((a, b) => b[1].us - a[1].us).slice(0, 12))
    console.log(`  forced ${f.n}× ${ms(f.us)} ms  ${key}`);
}

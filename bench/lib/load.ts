// Runs a load job in a forked client process (bench/lib/load-client.ts) and summarises it: requests/s,
// p50/p90/p99/max latency per tag and for all tags, non-2xx answers. No autocannon: node's http.Agent
// with keep-alive and bounded concurrency is enough on loopback.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../src/server/db/client';
import { cores, cpuMeter } from './cpu';
import type { LoadJob, LoadReport, TagStats } from './load-client';

export type { LoadJob };

export interface Summary {
  tag: string;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  /** Mean answer size in bytes. */
  bytes: number;
  /** Server CPU (node + database backends) per request, over the whole job, when measured. */
  cpuMs?: number;
  /** Its two parts: this process (Fastify, Drizzle, pg client) and the PostgreSQL backends. */
  cpuNodeMs?: number;
  cpuPgMs?: number;
}

const CLIENT = fileURLToPath(new URL('./load-client.ts', import.meta.url));

/** Sends the job to a fresh client process and waits for its report. */
export function runLoad(job: LoadJob): Promise<LoadReport> {
  return new Promise((resolve, reject) => {
    const child = fork(CLIENT, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    let report: LoadReport | undefined;
    child.once('message', (m) => (report = m as LoadReport));
    child.once('error', reject);
    child.once('exit', (code) =>
      report ? resolve(report) : reject(new Error(`load client exited with ${code} and no report`)),
    );
    child.send(job);
  });
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function summarise(tag: string, s: TagStats, seconds: number): Summary {
  return {
    tag,
    requests: s.count,
    rps: s.count / seconds,
    p50: quantile(s.latencies, 0.5),
    p90: quantile(s.latencies, 0.9),
    p99: quantile(s.latencies, 0.99),
    max: s.latencies[s.latencies.length - 1] ?? NaN,
    errors: s.errors,
    bytes: s.count ? s.bytes / s.count : 0,
  };
}

/** One summary per tag, then 'all' over every request of the run. */
export function summaries(report: LoadReport): Summary[] {
  const tags = Object.entries(report.byTag).map(([tag, s]) => summarise(tag, s, report.seconds));
  const all: TagStats = { count: 0, latencies: [], errors: 0, statuses: {}, bytes: 0 };
  for (const s of Object.values(report.byTag)) {
    all.count += s.count;
    all.errors += s.errors;
    all.bytes += s.bytes;
    for (const l of s.latencies) all.latencies.push(l);
  }
  all.latencies.sort((a, b) => a - b);
  if (tags.length === 1) return tags;
  return [...tags, summarise('all', all, report.seconds)];
}

/**
 * Measures one job and returns its summaries; prints the first non-2xx answers if any. With the
 * server's database, also the server-side CPU per request.
 */
export async function measure(job: LoadJob, database?: Database): Promise<Summary[]> {
  const meter = database && (await cpuMeter(database));
  const report = await runLoad(job);
  const cpu = meter && (await meter.stop());
  for (const s of report.samples) console.warn(`  ! ${s}`);
  const out = summaries(report);
  if (cpu && report.total)
    for (const s of out) {
      s.cpuNodeMs = cpu.nodeMs / report.total;
      s.cpuPgMs = cpu.pgMs / report.total;
      s.cpuMs = s.cpuNodeMs + s.cpuPgMs;
    }
  return out;
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');

/** A fixed-width table row; `cols` are already formatted. */
export function row(cols: Array<string | number>, widths: number[]): string {
  return cols
    .map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
    .join(' ');
}

export function formatSummary(label: string, s: Summary): string[] {
  const cpu =
    s.cpuMs === undefined ? ['-', '-'] : [s.cpuMs.toFixed(2), ((cores() * 1000) / s.cpuMs).toFixed(0)];
  return [
    label,
    s.tag,
    s.rps.toFixed(0),
    ms(s.p50),
    ms(s.p90),
    ms(s.p99),
    ms(s.max),
    String(s.errors),
    ...cpu,
  ];
}

/** The last two columns: server CPU ms per request, and the req/s the machine's cores could give at that cost. */
export const SUMMARY_HEADER = [
  'run',
  'request',
  'req/s',
  'p50 ms',
  'p90 ms',
  'p99 ms',
  'max ms',
  'non-2xx',
  'cpu ms',
  'cpu cap',
];

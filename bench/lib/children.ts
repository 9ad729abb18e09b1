// Runs one timed phase of a bench in a forked child process and samples its resident memory from
// outside every 100 ms (/proc/<pid>/status), so each phase's peak is its own and not what an earlier
// phase left in the allocator. Optionally with V8's CPU profiler, summarised by self time.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ChildRun<T> {
  result: T;
  peakRssMiB: number;
  /** Top functions by self time, when profiled. */
  profile?: string[];
}

function rssMiB(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** Forks `script` with `args`; the child must `process.send(result)` once and exit. */
export function runChild<T>(
  script: string,
  args: string[],
  opts: { profile?: boolean } = {},
): Promise<ChildRun<T>> {
  const profDir = opts.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-prof-')) : undefined;
  const execArgv = ['--import', 'tsx', ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [])];
  return new Promise((resolve, reject) => {
    const child = fork(script, args, { execArgv, stdio: 'inherit' });
    let peak = 0;
    const timer = setInterval(() => {
      if (child.pid) peak = Math.max(peak, rssMiB(child.pid));
    }, 100);
    let result: T | undefined;
    child.on('message', (m) => (result = m as T));
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(timer);
      if (result === undefined)
        return reject(new Error(`${path.basename(script)} ${args.join(' ')} exited ${code}`));
      let profile: string[] | undefined;
      if (profDir) {
        const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
        if (file) profile = summariseProfile(path.join(profDir, file));
        fs.rmSync(profDir, { recursive: true, force: true });
      }
      resolve({ result, peakRssMiB: peak, profile });
    });
  });
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Self time per function (top 15) and the share of time the main thread was idle (waiting on libuv). */
export function summariseProfile(file: string, top = 15): string[] {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byNode = new Map<number, number>();
  p.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const self = new Map<string, number>();
  let total = 0;
  for (const n of p.nodes) {
    const us = byNode.get(n.id) ?? 0;
    total += us;
    const where = n.callFrame.url
      ? ` ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`
      : '';
    const key = `${n.callFrame.functionName || '(anonymous)'}${where}`;
    self.set(key, (self.get(key) ?? 0) + us);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([k, us]) =>
        `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1e6).toFixed(1).padStart(6)} s  ${k}`,
    );
}

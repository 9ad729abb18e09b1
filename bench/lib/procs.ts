// Memory and CPU time of processes from /proc (Linux): the upload bench samples the server and every
// Chromium process by its type (browser, renderer, gpu, network/storage utility), so that a run says
// not only how fast it went but which process spent the CPU and which one held the memory.
import fs from 'node:fs';

const TICK_MS = 10; // CLK_TCK is 100 on Linux

export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The parts of a process's RSS (MiB): anonymous memory, mapped files, shared memory. */
export function rssPartsOf(pid: number): string {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const mib = (key: string) =>
      Math.round(Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024);
    return `anon ${mib('RssAnon')}, file ${mib('RssFile')}, shmem ${mib('RssShmem')} MiB`;
  } catch {
    return '';
  }
}

/** User + system CPU milliseconds of a process so far; 0 when it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

function cmdlineOf(pid: number): string[] {
  try {
    // Chromium rewrites its children's titles into one space-separated string.
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
  } catch {
    return [];
  }
}

function parentOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/**
 * The processes of the one Chromium started with `marker` among its arguments (other people's
 * browsers on the machine are not counted), by kind: 'browser', 'renderer', 'gpu-process',
 * 'utility:<service>', …
 */
export function chromiumProcs(marker: string): Map<number, string> {
  const pids = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const root = pids.find((pid) => cmdlineOf(pid).includes(marker));
  const out = new Map<number, string>();
  if (!root) return out;
  const parents = new Map(pids.map((pid) => [pid, parentOf(pid)]));
  const isOurs = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 8; p = parents.get(p) ?? 0, hops++)
      if (p === root) return true;
    return false;
  };
  for (const pid of pids) {
    if (!isOurs(pid)) continue;
    const cmd = cmdlineOf(pid);
    const type = cmd.find((a) => a.startsWith('--type='))?.slice(7) ?? 'browser';
    if (type === 'zygote' || type === 'crashpad-handler') continue;
    // network.mojom.NetworkService → network, storage.mojom.StorageService → storage
    const service = cmd
      .find((a) => a.startsWith('--utility-sub-type='))
      ?.slice(19)
      .split('.')[0];
    out.set(pid, type === 'utility' && service ? `utility:${service}` : type);
  }
  return out;
}

/** CPU milliseconds spent per process kind between `start()` and `stop()` (processes born in between count whole). */
export function cpuByKind(procs: () => Map<number, string>) {
  const before = new Map<number, number>();
  for (const pid of procs().keys()) before.set(pid, cpuMsOf(pid));
  // Processes may end before stop(): their last reading is kept.
  const last = new Map<number, { kind: string; ms: number }>();
  const sample = () => {
    for (const [pid, kind] of procs()) last.set(pid, { kind, ms: cpuMsOf(pid) });
  };
  const timer = setInterval(sample, 250);
  return {
    stop(): Record<string, number> {
      clearInterval(timer);
      sample();
      const out: Record<string, number> = {};
      for (const [pid, { kind, ms }] of last) out[kind] = (out[kind] ?? 0) + ms - (before.get(pid) ?? 0);
      return out;
    },
  };
}

/** User + system CPU milliseconds of each thread of a process, by thread name ('comm'). */
function threadCpuOf(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${name}#${tid}`, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/**
 * CPU milliseconds per thread ("<process kind> <thread name>", threads of one name summed) between
 * `start` and `stop()`: which thread of which process did the work (the page's main thread, the
 * upload worker, the browser's I/O threads…).
 */
export function cpuByThread(procs: () => Map<number, string>) {
  const before = new Map<string, number>();
  const last = new Map<string, number>();
  const kindOf = new Map<string, string>();
  const sample = (into: Map<string, number>) => {
    for (const [pid, kind] of procs())
      for (const [thread, ms] of threadCpuOf(pid)) {
        const key = `${pid}/${thread}`;
        into.set(key, ms);
        kindOf.set(key, `${kind} ${thread.replace(/#\d+$/, '')}`);
      }
  };
  sample(before);
  const timer = setInterval(() => sample(last), 250);
  return {
    stop(): Array<[string, number]> {
      clearInterval(timer);
      sample(last);
      const out = new Map<string, number>();
      for (const [key, ms] of last) {
        const name = kindOf.get(key)!;
        out.set(name, (out.get(name) ?? 0) + ms - (before.get(key) ?? 0));
      }
      return [...out].sort((a, b) => b[1] - a[1]);
    },
  };
}

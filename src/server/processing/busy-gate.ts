// Keeps the pyramid's children off the CPU while this process is busy answering requests. Niceness
// alone does not: at +19 the list API's p99 still rose by a quarter to a half while a pyramid was
// written (bench/processing-load.ts), because on two cores the child's threads hold the caches and
// the cores between the server's wake-ups. So the server's own event-loop utilisation is sampled, and
// while it is high every running child is stopped (SIGSTOP) and continued (SIGCONT) once it is low
// again. A slide being written is already viewable (tiles are cut on demand), so its pyramid can wait
// for a quiet moment; in a process that runs jobs only (`npm run worker`) the loop is never busy and
// the gate never closes.
import type { ChildProcess } from 'node:child_process';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { running } from '../children/ts-child';

/** How often the loop's utilisation is sampled, and over what window. */
const SAMPLE_MS = 50;
/** Utilisation at or above which children stop, and below which they continue. */
const STOP_AT = 0.5;
const CONTINUE_BELOW = 0.25;

const gated = new Set<ChildProcess>();
let timer: NodeJS.Timeout | undefined;
let last: EventLoopUtilization | undefined;
let stopped = false;

function signalAll(name: 'SIGSTOP' | 'SIGCONT') {
  for (const child of gated) if (running(child)) child.kill(name);
}

function sample() {
  const now = performance.eventLoopUtilization();
  const { utilization } = performance.eventLoopUtilization(now, last);
  last = now;
  if (!stopped && utilization >= STOP_AT) {
    stopped = true;
    signalAll('SIGSTOP');
  } else if (stopped && utilization < CONTINUE_BELOW) {
    stopped = false;
    signalAll('SIGCONT');
  }
}

/**
 * Puts `child` under the gate until the returned release is called, which continues it if it is
 * stopped (before it is asked to end, or once it has ended).
 */
export function gateWhileBusy(child: ChildProcess): () => void {
  gated.add(child);
  if (stopped) child.kill('SIGSTOP');
  if (!timer) {
    last = performance.eventLoopUtilization();
    timer = setInterval(sample, SAMPLE_MS);
    timer.unref();
  }
  return () => {
    if (!gated.delete(child)) return;
    if (stopped && running(child)) child.kill('SIGCONT');
    if (gated.size === 0) {
      clearInterval(timer);
      timer = undefined;
      stopped = false;
    }
  };
}

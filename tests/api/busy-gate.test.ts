// The pyramid's children stop while the server's event loop is busy and continue when it is quiet
// again, or when they are released (so that a child asked to end can act on it).
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { gateWhileBusy } from '../../src/server/processing/busy-gate';
import { processState } from './processes';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keeps this event loop busy for `ms`: synchronous work in 20 ms slices, timers firing between. */
async function busyFor(ms: number, check?: () => boolean): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const slice = Date.now() + 20;
    while (Date.now() < slice);
    await new Promise((r) => setImmediate(r));
    if (check?.()) return true;
  }
  return false;
}

const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('the busy gate', () => {
  it('stops a gated child while the loop is busy and continues it when quiet or released', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    children.push(child);
    const pid = child.pid!;
    const release = gateWhileBusy(child);
    await sleep(150);
    expect(processState(pid)).not.toBe('T');

    expect(await busyFor(2_000, () => processState(pid) === 'T')).toBe(true);
    // Quiet again: continued within a few samples.
    const deadline = Date.now() + 2_000;
    while (processState(pid) === 'T' && Date.now() < deadline) await sleep(20);
    expect(processState(pid)).not.toBe('T');

    // Released while stopped: continued at once, and no longer stopped by a busy loop.
    expect(await busyFor(2_000, () => processState(pid) === 'T')).toBe(true);
    release();
    expect(processState(pid)).not.toBe('T');
    await busyFor(300);
    expect(processState(pid)).not.toBe('T');
  });
});

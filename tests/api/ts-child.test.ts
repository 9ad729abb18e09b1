// A child process forked by tsChild never outlives its parent: when the parent is killed outright
// (no handler of its own runs), the child's IPC channel closes and it exits.
import { describe, expect, it } from 'vitest';
import { tsChild } from '../../src/server/children/ts-child';
import { alive } from './processes';

describe('a TypeScript child process', () => {
  it('exits when its parent is killed', async () => {
    const parent = tsChild(new URL('./child-tree.ts', import.meta.url));
    const grandchild = await new Promise<number>((resolve, reject) => {
      parent.once('message', (m: { grandchild: number }) => resolve(m.grandchild));
      parent.once('exit', (code) => reject(new Error(`the parent exited (${code})`)));
    });
    expect(alive(grandchild)).toBe(true);
    parent.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (alive(grandchild) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive(grandchild)).toBe(false);
  });
});

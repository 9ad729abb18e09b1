// A process killed while writing a pack leaves it in DATA_DIR/work; the next process of the same host
// removes what ended processes left, and keeps what a running process (or another host) is writing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepWork, workFile } from '../../src/server/processing/derived';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the work folder sweep', () => {
  it('removes the files of ended processes of this host only', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-work-'));
    dirs.push(work);
    // A pid that has been used and is free again: a child that has ended.
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(ended.stdout);
    const mine = workFile(work, 'image-1', 'pack');
    const owner = path.basename(mine).split('.').at(-2)!;
    const host = owner.slice(0, owner.lastIndexOf('-'));
    const files = {
      mine,
      deadPack: path.join(work, `image-2.${host}-${deadPid}.pack`),
      deadTmp: path.join(work, `derived_image-2_thumbnail.jpg.${host}-${deadPid}.tmp`),
      otherHost: path.join(work, `image-3.elsewhere-${deadPid}.pack`),
      unrelated: path.join(work, 'notes.txt'),
    };
    for (const f of Object.values(files)) fs.writeFileSync(f, 'x');

    expect(await sweepWork(work)).toBe(2);
    const left = fs.readdirSync(work).sort();
    expect(left).toEqual([files.mine, files.otherHost, files.unrelated].map((f) => path.basename(f)).sort());
    // A folder that does not exist yet is nothing to sweep.
    expect(await sweepWork(path.join(work, 'missing'))).toBe(0);
  });
});

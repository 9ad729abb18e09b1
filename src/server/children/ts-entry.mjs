// The first module of a child process whose entry is TypeScript (ts-child.ts forks it with no
// execArgv of the parent's, so the child loads the same under tsx, vitest and plain node). Plain JS
// because it runs before any TypeScript loader exists. argv: the entry's file URL, then the niceness
// to add to the parent's.
//
// Its first act is lowering its priority, relative as nice(1) does (a server started under `nice`
// keeps the child below it; 19 at most), before tsx starts its threads and the entry its own
// (libuv's pool, libvips'): on Linux a thread's niceness is its own and a new thread inherits its
// creator's, so every thread made from here on runs at the lower priority, and the few the runtime
// started before this module (V8's platform threads) are lowered one by one through /proc.
import fs from 'node:fs';
import os from 'node:os';
import process from 'node:process';
import { register } from 'tsx/esm/api';

const [entry, niceness] = process.argv.slice(2);

function lowerPriority(increment) {
  const value = Math.min(19, os.getPriority(0) + increment);
  try {
    os.setPriority(0, value);
  } catch {
    // Not permitted or not supported: the child keeps the default priority.
    return;
  }
  let threads = [];
  try {
    threads = fs.readdirSync('/proc/self/task');
  } catch {
    // No /proc (not Linux): setPriority(0) applied to the whole process.
  }
  for (const tid of threads) {
    try {
      os.setPriority(Number(tid), value);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}

if (niceness) lowerPriority(Number(niceness));
// A child never outlives its parent: the IPC channel closes when the parent ends, however it ends;
// one that closed while this module was being loaded has already emitted its 'disconnect'.
process.on('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);
register();
await import(entry);

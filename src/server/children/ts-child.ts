// Child processes with a TypeScript entry, in every way the server runs (tsx for `npm start`, `npm
// run worker` and the benches; vitest's module runner in tests). A fork inherits the parent's
// execArgv, which differs between them (tsx's loader flags, vitest's), so the child gets none and
// starts at ts-entry.mjs, which lowers its priority, registers tsx's loader and imports the entry.
import { fork, type ChildProcess } from 'node:child_process';

const LOADER = new URL('./ts-entry.mjs', import.meta.url);

export interface TsChildOptions {
  /** Added to this thread's niceness for the child, before it starts any thread of its own (ts-entry.mjs). */
  niceness?: number;
}

/**
 * Forks a process running the TypeScript module `entry` (a file URL), with an IPC channel using
 * structured clone (typed arrays arrive as such). When the channel closes the child exits.
 */
export function tsChild(entry: URL, options: TsChildOptions = {}): ChildProcess {
  const args = [entry.href, ...(options.niceness === undefined ? [] : [String(options.niceness)])];
  return fork(LOADER, args, { execArgv: [], serialization: 'advanced', stdio: 'inherit' });
}

/** Whether `child` is still there: it has neither exited nor been ended by a signal. */
export const running = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

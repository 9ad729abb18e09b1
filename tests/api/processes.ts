// Processes as Linux's /proc shows them, for the tests of child processes.
import fs from 'node:fs';

/** This process's children (Linux /proc): their pids. */
export function children(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // The parent's pid is the 2nd field after the command, which is in parentheses.
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

/** The niceness of each of a process's threads (Linux /proc: the 19th field of a thread's stat). */
export function threadNiceness(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

/** Whether the process exists (signal 0 checks without sending). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process's state letter (Linux /proc: the 1st field after the command): 'T' when stopped. */
export function processState(pid: number): string {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
}

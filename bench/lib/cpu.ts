// CPU time the server side spends: this process (the server runs in it) plus, on PostgreSQL, the
// backends serving the bench database (/proc/<pid>/stat). The machine is shared, so wall-clock figures
// swing with other people's work; CPU milliseconds per request swing much less, and give the rate two
// otherwise idle cores could sustain (2 × 1000 / cpu ms per request).
import fs from 'node:fs';
import os from 'node:os';
import type { Database } from '../../src/server/db/client';

const TICK_MS = 10; // CLK_TCK is 100 on Linux

function procCpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
  } catch {
    return undefined; // the backend ended (pool idle timeout): its share is lost, not negative
  }
}

async function backendPids(database: Database): Promise<number[]> {
  if (database.kind !== 'postgres') return [];
  const rows = await database.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return rows.map((r) => Number(r.pid));
}

export interface CpuUse {
  nodeMs: number;
  pgMs: number;
}

/** Starts measuring; `stop()` returns the CPU used since, by this process and the database backends. */
export async function cpuMeter(database: Database): Promise<{ stop(): Promise<CpuUse> }> {
  const node0 = process.cpuUsage();
  const pg0 = new Map((await backendPids(database)).map((pid) => [pid, procCpuMs(pid) ?? 0]));
  return {
    async stop() {
      const d = process.cpuUsage(node0);
      let pgMs = 0;
      for (const pid of new Set([...pg0.keys(), ...(await backendPids(database))])) {
        const now = procCpuMs(pid);
        if (now !== undefined) pgMs += now - (pg0.get(pid) ?? 0);
      }
      return { nodeMs: (d.user + d.system) / 1000, pgMs };
    },
  };
}

export const cores = () => os.cpus().length;

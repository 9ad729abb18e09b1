// The load client, run as a child process of a bench (fork) so that its event loop does not share a
// core's time slices with the server it measures: N keep-alive connections, each sending the next GET
// as soon as the previous answer is fully read, for a fixed duration after a warm-up.
// Protocol: the parent sends one LoadJob, the child answers one LoadReport and exits.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface LoadJob {
  origin: string;
  /** Requests to send, each with a tag its latencies are grouped under; picked round-robin or at random. */
  requests: Array<{ tag: string; path: string }>;
  pick: 'round-robin' | 'random';
  headers: Record<string, string>;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

export interface TagStats {
  count: number;
  /** Latencies in ms, sorted ascending (only the measured window, not the warm-up). */
  latencies: number[];
  errors: number;
  statuses: Record<string, number>;
  bytes: number;
}

export interface LoadReport {
  seconds: number;
  /** Every answered request, warm-up included (for CPU per request measured around the whole job). */
  total: number;
  byTag: Record<string, TagStats>;
  /** The first few non-2xx answers, to show why a run went wrong. */
  samples: string[];
}

function get(agent: http.Agent, url: URL, headers: Record<string, string>) {
  return new Promise<{ status: number; bytes: number; body: string }>((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      let bytes = 0;
      const ok = (res.statusCode ?? 0) < 300;
      let body = '';
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (!ok && body.length < 300) body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

export async function runJob(job: LoadJob): Promise<LoadReport> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const byTag: Record<string, TagStats> = {};
  for (const r of job.requests)
    byTag[r.tag] ??= { count: 0, latencies: [], errors: 0, statuses: {}, bytes: 0 };
  const samples: string[] = [];
  const start = performance.now();
  const measureFrom = start + job.warmupMs;
  const end = measureFrom + job.durationMs;
  let next = 0;
  let total = 0;
  const urls = job.requests.map((r) => ({ tag: r.tag, url: new URL(r.path, job.origin) }));
  const choose = () =>
    job.pick === 'random' ? urls[Math.floor(Math.random() * urls.length)] : urls[next++ % urls.length];

  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      for (;;) {
        const sent = performance.now();
        if (sent >= end) return;
        const { tag, url } = choose();
        let status = 0;
        let bytes = 0;
        try {
          const res = await get(agent, url, job.headers);
          status = res.status;
          bytes = res.bytes;
          if (status >= 300 && samples.length < 5) samples.push(`${status} ${url.pathname}: ${res.body}`);
        } catch (e) {
          if (samples.length < 5) samples.push(`error ${url.pathname}: ${String(e)}`);
        }
        const done = performance.now();
        total++;
        // A request counts when it was sent inside the window (its answer may arrive just after).
        if (sent < measureFrom) continue;
        const s = byTag[tag];
        s.count++;
        s.latencies.push(done - sent);
        s.bytes += bytes;
        s.statuses[status] = (s.statuses[status] ?? 0) + 1;
        if (status < 200 || status >= 300) s.errors++;
      }
    }),
  );
  const seconds = (performance.now() - measureFrom) / 1000;
  agent.destroy();
  for (const s of Object.values(byTag)) s.latencies.sort((a, b) => a - b);
  return { seconds, total, byTag, samples };
}

// As a forked child: one job in, one report out.
if (process.send) {
  process.once('message', (job: LoadJob) => {
    void runJob(job).then((report) => process.send!(report, () => process.exit(0)));
  });
}

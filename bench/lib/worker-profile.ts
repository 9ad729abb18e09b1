// CPU profiles of a page's dedicated workers over the Chrome DevTools Protocol: the upload bench uses
// it to see where the upload worker's time goes (hashing, reading slices, tus). Playwright opens CDP
// sessions on pages only, so the worker is reached from the page's session with the (non-flat)
// Target.sendMessageToTarget transport.
import type { CDPSession, Page } from '@playwright/test';

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** One worker's DevTools session, spoken through the browser's. */
class WorkerSession {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  constructor(
    private readonly parent: CDPSession,
    readonly sessionId: string,
    readonly url: string,
  ) {}

  receive(message: string): void {
    const m = JSON.parse(message) as { id?: number; result?: unknown; error?: { message: string } };
    const p = m.id === undefined ? undefined : this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id!);
    if (m.error) p.reject(new Error(m.error.message));
    else p.resolve(m.result);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
      void this.parent
        .send('Target.sendMessageToTarget', {
          sessionId: this.sessionId,
          message: JSON.stringify({ id, method, params }),
        })
        .catch(reject);
    });
  }
}

export interface WorkerProfiles {
  /** Stops every profile started so far; one `.cpuprofile` JSON per worker. */
  stop(): Promise<Array<{ url: string; profile: unknown }>>;
}

/** Starts the sampling profiler in every dedicated worker of the page, now and from now on. */
export async function profileWorkers(page: Page, samplingMicros = 200): Promise<WorkerProfiles> {
  const cdp = await page.context().newCDPSession(page);
  const sessions = new Map<string, WorkerSession>();
  const started: Array<Promise<unknown>> = [];
  cdp.on('Target.receivedMessageFromTarget', (e) => sessions.get(e.sessionId)?.receive(e.message));
  cdp.on('Target.attachedToTarget', (e) => {
    if (e.targetInfo.type !== 'worker') return;
    const session = new WorkerSession(cdp, e.sessionId, e.targetInfo.url);
    sessions.set(e.sessionId, session);
    const start = (async () => {
      await session.send('Profiler.enable');
      await session.send('Profiler.setSamplingInterval', { interval: samplingMicros });
      await session.send('Profiler.start');
    })();
    started.push(start.catch(() => undefined));
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return {
    async stop() {
      await Promise.all(started);
      const out: Array<{ url: string; profile: unknown }> = [];
      for (const s of sessions.values()) {
        const r = await s.send<{ profile: unknown }>('Profiler.stop').catch(() => undefined);
        if (r) out.push({ url: s.url, profile: r.profile });
      }
      await cdp.detach().catch(() => undefined);
      return out;
    },
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** The functions with the most self time in a `.cpuprofile`: [name at file:line, ms]. */
export function topSelf(profile: unknown, n = 15): Array<[string, number]> {
  const p = profile as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const byName = new Map<string, number>();
  for (const node of p.nodes) {
    const f = node.callFrame;
    const file = f.url.split('/').at(-1) ?? '';
    const name = `${f.functionName || '(anonymous)'}${file ? ` ${file}:${f.lineNumber + 1}` : ''}`;
    byName.set(name, (byName.get(name) ?? 0) + (self.get(node.id) ?? 0));
  }
  return [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/** Starts the sampling profiler on a page's main thread; `stop()` returns its `.cpuprofile`. */
export async function profilePage(page: Page, samplingMicros = 200): Promise<{ stop(): Promise<unknown> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: samplingMicros });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.detach().catch(() => undefined);
      return profile;
    },
  };
}

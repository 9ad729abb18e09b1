// The page's sync loop: replays the outbox on start, on `online`, when the page
// becomes visible, after each new entry and on a backoff timer; pulls every kind on start, on
// `online` and on visibility, and single kinds when a query asks (at the spec's §9 intervals).
// Framework-free: src/app/sync wraps it for React; the service worker uses replay.ts directly.
import { SYNC_KINDS, type SyncKind } from '../api/sync';
import type { LocalDb } from './db';
import type { LockRunner } from './locks';
import { pullAll, type PullOutcome } from './pull';
import { backoffMs, OUTBOX_SENT_MESSAGE, replayOutbox, type ReplayResult } from './replay';
import { isQuotaError } from './quota';
import type { Transport } from './transport';

export interface EngineStatus {
  online: boolean;
  /** The server answered 401: nothing is sent until the user signs in again. */
  signInNeeded: boolean;
  /** IndexedDB refused a write for lack of space. */
  storageFull: boolean;
  replaying: boolean;
  pulling: boolean;
}

export interface EngineOptions {
  db: LocalDb;
  transport: Transport;
  userId: string;
  lock?: LockRunner;
  /** Asks the service worker to replay when the browser is back online (Background Sync). */
  requestBackgroundSync?: () => Promise<void>;
  onStatus?: (status: EngineStatus) => void;
  /** The browser window (absent in tests that drive the engine by hand). */
  window?: Pick<Window, 'addEventListener' | 'removeEventListener'> & { navigator: { onLine: boolean } };
  document?: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>;
  /** The service worker's messages (`navigator.serviceWorker`): it says when its replay sent something. */
  serviceWorker?: Pick<ServiceWorkerContainer, 'addEventListener' | 'removeEventListener'>;
}

/** A full pull on visibility at most this often (a tab switched back and forth costs nothing). */
const FULL_PULL_MIN_GAP_MS = 10_000;
/** After a 401, how long before the outbox is tried again (the session may have been refreshed). */
const SIGN_IN_RETRY_MS = 60_000;
/** While offline the browser's `online` event is the trigger; this is the fallback poll. */
const OFFLINE_POLL_MS = 60_000;

export class SyncEngine {
  private status: EngineStatus;
  private replayDirty = false;
  private replayRun?: Promise<void>;
  private pulls = new Map<string, Promise<PullOutcome[]>>();
  private timer?: ReturnType<typeof setTimeout>;
  private authTimer?: ReturnType<typeof setTimeout>;
  private networkFailures = 0;
  private lastFullPull = 0;
  private stopped = false;
  private readonly detach: Array<() => void> = [];

  constructor(private readonly opts: EngineOptions) {
    this.status = {
      online: opts.window?.navigator.onLine ?? true,
      signInNeeded: false,
      storageFull: false,
      replaying: false,
      pulling: false,
    };
  }

  get current(): EngineStatus {
    return this.status;
  }

  /** Starts listening and runs the first replay and pull. */
  start(): void {
    const { window: win, document: doc } = this.opts;
    const on = <K extends string>(
      target: {
        addEventListener: (k: K, f: (event: Event) => void) => void;
        removeEventListener: (k: K, f: (event: Event) => void) => void;
      },
      name: K,
      fn: (event: Event) => void,
    ) => {
      target.addEventListener(name, fn);
      this.detach.push(() => target.removeEventListener(name, fn));
    };
    if (win) {
      on(win, 'online', () => {
        this.set({ online: true, signInNeeded: false });
        this.networkFailures = 0;
        void this.kick();
        void this.pullEverything(true);
      });
      on(win, 'offline', () => this.set({ online: false }));
    }
    if (doc)
      on(doc, 'visibilitychange', () => {
        if (doc.visibilityState !== 'visible') return;
        this.set({ signInNeeded: false });
        void this.kick();
        void this.pullEverything(false);
      });
    if (this.opts.serviceWorker)
      on(this.opts.serviceWorker, 'message', (event) => {
        if ((event as MessageEvent<{ type?: unknown } | null>).data?.type === OUTBOX_SENT_MESSAGE)
          this.pullAfterSending();
      });
    void this.kick();
    void this.pullEverything(true);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.authTimer);
    for (const off of this.detach.splice(0)) off();
  }

  /**
   * Stops, and resolves once the requests already sent have been answered (a pull stops before its
   * next kind). Sign-out waits for this: sent after it, those requests would only be refused.
   */
  async halt(): Promise<void> {
    this.stop();
    await Promise.allSettled([...this.pulls.values(), this.replayRun]);
  }

  /** Sends the outbox (coalesced: many kicks while a run is going make one more run). */
  kick(): Promise<void> {
    this.replayDirty = true;
    this.replayRun ??= this.replayLoop().finally(() => (this.replayRun = undefined));
    return this.replayRun;
  }

  /** After a new sign-in: a 401 no longer blocks the outbox. */
  signedIn(): void {
    this.set({ signInNeeded: false });
    void this.kick();
  }

  /**
   * Pulls kinds; what a query's revalidation calls. A call while the same pull runs shares it, unless
   * `fresh` (the network just came back: what is running may have started offline), which runs
   * another one after it.
   */
  pull(kinds: readonly SyncKind[] = SYNC_KINDS, fresh = false): Promise<PullOutcome[]> {
    const key = kinds.join(',');
    const running = this.pulls.get(key);
    if (running && fresh) {
      const again = () => this.runPull(kinds);
      return running.then(again, again);
    }
    if (running) return running;
    const run = this.runPull(kinds).finally(() => this.pulls.delete(key));
    this.pulls.set(key, run);
    return run;
  }

  private async pullEverything(force: boolean): Promise<void> {
    if (!force && Date.now() - this.lastFullPull < FULL_PULL_MIN_GAP_MS) return;
    this.lastFullPull = Date.now();
    await this.pull(SYNC_KINDS, force);
  }

  private async runPull(kinds: readonly SyncKind[]): Promise<PullOutcome[]> {
    if (this.stopped || this.status.signInNeeded) return [];
    this.set({ pulling: true });
    try {
      const outcomes = await pullAll(this.opts.db, this.opts.transport, kinds, {
        lock: this.opts.lock,
        halted: () => this.stopped,
      });
      if (outcomes.some((o) => o.status === 'unauthorized')) this.needSignIn();
      if (outcomes.some((o) => o.status === 'offline')) this.set({ online: false });
      else if (outcomes.length) this.set({ online: true, storageFull: false });
      return outcomes;
    } catch (error) {
      if (isQuotaError(error)) this.set({ storageFull: true });
      return [];
    } finally {
      this.set({ pulling: false });
    }
  }

  private async replayLoop(): Promise<void> {
    while (this.replayDirty && !this.stopped) {
      this.replayDirty = false;
      if (this.status.signInNeeded) return;
      this.set({ replaying: true });
      let result: ReplayResult;
      try {
        result = await replayOutbox(this.opts.db, {
          transport: this.opts.transport,
          userId: this.opts.userId,
          lock: this.opts.lock,
        });
      } catch (error) {
        if (isQuotaError(error)) this.set({ storageFull: true });
        result = { sent: 0, failed: 0, retryAt: Date.now() + backoffMs(++this.networkFailures) };
      } finally {
        this.set({ replaying: false });
      }
      this.afterReplay(result);
    }
  }

  private afterReplay(result: ReplayResult): void {
    clearTimeout(this.timer);
    if (result.stopped === 'unauthorized') {
      this.needSignIn();
      return;
    }
    let wake = result.retryAt;
    if (result.stopped === 'offline') {
      this.networkFailures++;
      const online = this.opts.window?.navigator.onLine ?? true;
      this.set({ online: false });
      // Offline: the `online` event (and the service worker's `sync`) will come; the server down
      // while the network is up: back off.
      const delay = online ? backoffMs(this.networkFailures) : OFFLINE_POLL_MS;
      wake = Math.min(wake ?? Infinity, Date.now() + delay);
      void this.opts.requestBackgroundSync?.().catch(() => undefined);
    } else {
      this.networkFailures = 0;
      if (result.sent > 0) this.pullAfterSending();
    }
    if (wake !== undefined && Number.isFinite(wake) && !this.stopped)
      this.timer = setTimeout(() => void this.kick(), Math.max(0, wake - Date.now()));
  }

  /**
   * Something was sent (by this page or by the service worker): it may have changed other rows on the
   * server (an order list places its orders, a study shares its slides), so they come in now rather
   * than at the next interval.
   */
  private pullAfterSending(): void {
    if (this.stopped) return;
    this.set({ online: true });
    void this.pull(SYNC_KINDS, true);
  }

  /**
   * A 401: nothing is sent until the user signs in. The page's client already tried a token refresh;
   * if that failed for lack of network rather than because the session is over, a later attempt
   * succeeds, so the outbox is tried again after a while.
   */
  private needSignIn(): void {
    this.set({ signInNeeded: true });
    clearTimeout(this.authTimer);
    if (!this.stopped) this.authTimer = setTimeout(() => this.signedIn(), SIGN_IN_RETRY_MS);
  }

  private set(change: Partial<EngineStatus>): void {
    const next = { ...this.status, ...change };
    if (
      Object.keys(change).every((k) => next[k as keyof EngineStatus] === this.status[k as keyof EngineStatus])
    )
      return;
    this.status = next;
    this.opts.onStatus?.(next);
  }
}

// The uploads' locks when several servers share one PostgreSQL: tus's Locker over session-level
// advisory locks, so two processes never write the same upload at once. A lock lives on a connection
// of its own (released with it, so a server that dies frees its locks). A request that finds the lock
// taken asks its holder, in whatever process, to let go (NOTIFY on one channel, which every process
// LISTENs to); the holder stops after tus's short drain (patch.ts) and the asker takes the lock.
import crypto from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { HeldSession, SharedSessions } from '../db/client';

const RELEASE_CHANNEL = 'tessera_upload_release';
/** How often a waiting request tries the lock again, and asks the holder again to let go. */
const RETRY_MS = 50;
const ASK_AGAIN_MS = 1000;

/** The advisory lock's two int4 keys for an upload id (a namespace word, then a hash of the id). */
function lockKeys(id: string): [number, number] {
  return [0x7e55e2a, crypto.createHash('sha1').update(id).digest().readInt32BE(0)];
}

export class PgLocker implements Locker {
  /** The release callbacks of the locks this process holds, by upload id. */
  readonly holders = new Map<string, RequestRelease>();
  private subscribed: Promise<unknown> | undefined;

  constructor(
    readonly shared: SharedSessions,
    readonly acquireTimeoutMs = 30_000,
  ) {}

  /** Listens for other processes' requests to let go (once, on first use). */
  subscribe(): Promise<unknown> {
    // A failed LISTEN is not kept: the next lock tries again.
    return (this.subscribed ??= this.shared
      .listen(RELEASE_CHANNEL, (id) => {
        void this.holders.get(id)?.();
      })
      .catch((error: unknown) => {
        this.subscribed = undefined;
        throw error;
      }));
  }

  newLock(id: string): Lock {
    return new PgLock(id, this);
  }
}

class PgLock implements Lock {
  private session: HeldSession | undefined;

  constructor(
    private readonly id: string,
    private readonly locker: PgLocker,
  ) {}

  async lock(stop: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.locker.subscribe();
    const session = await this.locker.shared.session();
    const keys = lockKeys(this.id);
    const deadline = Date.now() + this.locker.acquireTimeoutMs;
    let askedAt = 0;
    try {
      for (;;) {
        const [row] = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', keys);
        if (row?.ok) {
          this.session = session;
          this.locker.holders.set(this.id, requestRelease);
          return;
        }
        if (stop.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
        if (Date.now() - askedAt > ASK_AGAIN_MS) {
          askedAt = Date.now();
          await this.locker.shared.notify(RELEASE_CHANNEL, this.id);
        }
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    } catch (error) {
      session.release(true);
      throw error;
    }
  }

  async unlock(): Promise<void> {
    const session = this.session;
    if (!session) throw new Error('Releasing an unlocked lock');
    this.session = undefined;
    this.locker.holders.delete(this.id);
    try {
      await session.query('SELECT pg_advisory_unlock($1, $2)', lockKeys(this.id));
      session.release();
    } catch {
      session.release(true); // closing the connection frees its locks
    }
  }
}

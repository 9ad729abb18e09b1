// The pyramid step of processing in its own thread: decoding the slide's tiles and halving its bands
// are seconds to minutes of JavaScript, which on the server's event loop would hold every request
// behind them. The thread (pyramid-thread.ts) gets everything by value (the storage's settings, the
// slide's keys, scene and limit, the pack's path) and opens its own storage and slide; it posts
// progress, stops when asked (the job's AbortSignal), and its failure comes back as the same kind of
// error (a SlideError with its code and reason, an AbortError as the signal's reason), so the job
// handles it as it would one thrown here.
import { SlideError, type SlideErrorCode } from '../slides/errors';
import type { StorageSettings } from '../storage';
import { tsWorker } from '../threads/ts-worker';
import type { PyramidResult } from './tiler';

/** Niceness of the pyramid's thread (Linux: that thread only), so request handling wins the CPU. */
export const PYRAMID_NICENESS = 10;

export interface PyramidTask {
  storage: StorageSettings;
  keys: string[];
  scene: number;
  maxPixels?: number;
  /** The pack file to write on the local disk (removed again when the thread fails). */
  file: string;
  /** The image's layers.json, stored in the pack after the pyramid. */
  layersJson: string;
  niceness: number;
}

export interface PackResult {
  pyramid: PyramidResult;
  /** The pack's size in bytes. */
  bytes: number;
  /** The thumbnail JPEG (previews.ts), made in the thread: a slide without levels of its own takes long. */
  thumbnail: Uint8Array;
  /** The label picture as PNG, when the slide has one. */
  label?: Uint8Array;
  /** The thread that wrote it (never the caller's). */
  threadId: number;
}

/** An error as the thread posts it: enough to make the same kind of error on this side. */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
}

export type FromThread =
  | { type: 'progress'; done: number; total: number }
  | ({ type: 'done' } & PackResult)
  | { type: 'error'; error: ThreadError };

export type ToThread = { type: 'abort' };

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    code: typeof code === 'string' ? code : undefined,
  };
}

function fromThreadError(e: ThreadError, signal?: AbortSignal): unknown {
  if (e.name === 'AbortError' && signal?.aborted) return signal.reason;
  const error =
    e.name === 'SlideError'
      ? new SlideError(e.code as SlideErrorCode, e.message)
      : Object.assign(new Error(e.message), { name: e.name, ...(e.code ? { code: e.code } : {}) });
  if (e.stack) error.stack = e.stack;
  return error;
}

const ENTRY = new URL('./pyramid-thread.ts', import.meta.url);

/**
 * Writes the slide's pyramid(s) and layers.json into a pack at `task.file` and makes its thumbnail
 * and label picture, in a thread of its own; resolves when the pack is complete. Rejects as
 * writePyramid would have.
 */
export function writePackInThread(
  task: PyramidTask,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<PackResult> {
  const { signal } = opts;
  signal?.throwIfAborted();
  return new Promise<PackResult>((resolve, reject) => {
    const worker = tsWorker(ENTRY, task);
    let settled = false;
    const onAbort = () => worker.postMessage({ type: 'abort' } satisfies ToThread);
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      // The thread's work is over; it may still hold sockets (S3) open that would keep it alive.
      void worker.terminate();
      finish();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: FromThread) => {
      if (m.type === 'progress') opts.onProgress?.(m.done, m.total);
      else if (m.type === 'done')
        settle(() => {
          const { type: _type, ...result } = m;
          resolve(result);
        });
      else settle(() => reject(fromThreadError(m.error, signal)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) =>
      settle(() => reject(new Error(`pyramid thread exited (code ${code}) before the pack was written`))),
    );
  });
}

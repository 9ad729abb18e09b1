// The pyramid step of processing in a child process of its own at a lower priority: decoding the
// slide's tiles, halving its bands and encoding every tile as JPEG are seconds to minutes of CPU. In
// the server's process even a thread would share libuv's pool (where sharp encodes and decodes) at
// the server's priority; a child's every thread, that pool included, runs at the child's niceness,
// so request handling gets the CPU first. The child (pyramid-child.ts) gets everything by value
// (the storage's settings, the slide's keys, scene and limit, the pack's path) and opens its own
// storage and slide; it sends progress, is killed when the job is aborted, and its failure comes
// back as the same kind of error (a SlideError with its code and reason), so the job handles it as
// it would one thrown here. A child that ends without an answer (a crash, out of memory, killed) is
// a plain Error, which the queue retries.
import fs from 'node:fs/promises';
import { SlideError, type SlideErrorCode } from '../slides/errors';
import type { StorageSettings } from '../storage';
import { tsChild } from '../children/ts-child';
import type { PyramidResult } from './tiler';

/** How much nicer than the server the pyramid's process runs, so request handling wins the CPU. */
export const PYRAMID_NICENESS = 10;

/** How long a child asked to stop (SIGTERM) gets before it is killed outright (SIGKILL). */
const KILL_GRACE_MS = 5_000;

export interface PyramidTask {
  storage: StorageSettings;
  keys: string[];
  scene: number;
  maxPixels?: number;
  /** The pack file to write on the local disk (removed again when the child fails). */
  file: string;
  /** The image's layers.json, stored in the pack after the pyramid. */
  layersJson: string;
  /** Added to the server's niceness for the child (as nice(1) does). */
  niceness: number;
}

export interface PackResult {
  pyramid: PyramidResult;
  /** The pack's size in bytes. */
  bytes: number;
  /** The thumbnail JPEG (previews.ts), made in the child: a slide without levels of its own takes long. */
  thumbnail: Uint8Array;
  /** The label picture as PNG, when the slide has one. */
  label?: Uint8Array;
  /** The process that wrote it (never the caller's). */
  pid: number;
}

/** An error as the child sends it: enough to make the same kind of error on this side. */
export interface ChildError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
}

/** The child asks for its task once it listens: a message sent before that would be lost. */
export type FromChild =
  | { type: 'ready' }
  | { type: 'progress'; done: number; total: number }
  | ({ type: 'done' } & PackResult)
  | { type: 'error'; error: ChildError };

export type ToChild = { type: 'task'; task: PyramidTask };

export function toChildError(error: unknown): ChildError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    code: typeof code === 'string' ? code : undefined,
  };
}

function fromChildError(e: ChildError): Error {
  const error =
    e.name === 'SlideError'
      ? new SlideError(e.code as SlideErrorCode, e.message)
      : Object.assign(new Error(e.message), { name: e.name, ...(e.code ? { code: e.code } : {}) });
  if (e.stack) error.stack = e.stack;
  return error;
}

const ENTRY = new URL('./pyramid-child.ts', import.meta.url);

type Outcome = { ok: true; result: PackResult } | { ok: false; error: unknown };

/**
 * Writes the slide's pyramid(s) and layers.json into a pack at `task.file` and makes its thumbnail
 * and label picture, in a child process of its own; settles once the child has ended: resolves when
 * the pack is complete, rejects as writePyramid would have (the signal's reason when aborted), with
 * no pack left behind.
 */
export function writePackInChild(
  task: PyramidTask,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<PackResult> {
  const { signal } = opts;
  signal?.throwIfAborted();
  return new Promise<PackResult>((resolve, reject) => {
    const child = tsChild(ENTRY, { niceness: task.niceness });
    let outcome: Outcome | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (signalName: NodeJS.Signals) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signalName);
    };
    /** Records the first outcome and ends the child; the promise settles at its exit. */
    const conclude = (o: Outcome) => {
      outcome ??= o;
      if (o.ok && child.connected)
        child.disconnect(); // its work is over; ts-entry.mjs exits on this
      else stop('SIGTERM');
      killTimer ??= setTimeout(() => stop('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    const onAbort = () => conclude({ ok: false, error: signal!.reason });
    signal?.addEventListener('abort', onAbort, { once: true });

    child.on('message', (m: FromChild) => {
      if (outcome) return;
      if (m.type === 'ready') child.send({ type: 'task', task } satisfies ToChild);
      else if (m.type === 'progress') opts.onProgress?.(m.done, m.total);
      else if (m.type === 'done') {
        const { type: _type, ...result } = m;
        conclude({ ok: true, result });
      } else conclude({ ok: false, error: fromChildError(m.error) });
    });
    child.on('error', (error) => {
      // Not started at all (no pid): there is no exit to wait for.
      if (child.pid === undefined) {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      } else conclude({ ok: false, error });
    });
    child.on('exit', (code, signalName) => {
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      const o: Outcome = outcome ?? {
        ok: false,
        error: new Error(
          `pyramid process exited (${signalName ?? `code ${code}`}) before the pack was written`,
        ),
      };
      if (o.ok) resolve(o.result);
      // A killed child leaves what it had written; nothing writes the file any more.
      else void fs.rm(task.file, { force: true }).finally(() => reject(o.error));
    });
  });
}

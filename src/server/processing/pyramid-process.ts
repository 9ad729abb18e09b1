// The pyramid step of processing in a child process of its own at a lower priority: decoding the
// slide's tiles, halving its bands and encoding every tile as JPEG are seconds to minutes of CPU. In
// the server's process even a thread would share libuv's pool (where sharp encodes and decodes) at
// the server's priority; a child's every thread, that pool included, runs at the child's niceness,
// so request handling gets the CPU first, and while this process is busy it is stopped outright
// (busy-gate.ts). The child (pyramid-child.ts) gets everything by value
// (the storage's settings, the slide's keys, scene and limit, the pack's path) and opens its own
// storage and slide; it sends progress, is killed when the job is aborted, and its failure comes
// back as the same kind of error (a SlideError with its code and reason), so the job handles it as
// it would one thrown here. A child that ends without an answer (a crash, out of memory, killed) is
// a plain Error, which the queue retries. A child that wrote its pack waits a while for the next.
import fs from 'node:fs/promises';
import { SlideError, type SlideErrorCode } from '../slides/errors';
import type { StorageSettings } from '../storage';
import type { ChildProcess } from 'node:child_process';
import { running, tsChild } from '../children/ts-child';
import { gateWhileBusy } from './busy-gate';
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

/**
 * A child that finished its pack waits this long for the next one: starting one (Node, tsx, the
 * readers, sharp, the storage's client) takes 1–2 s, which a lab's run of uploads, or a test suite's,
 * would pay per image.
 */
export const IDLE_CHILD_MS = 30_000;
/** Idle children kept at most (one per pyramid job that ran at once). */
const MAX_IDLE_CHILDREN = 2;

interface IdleChild {
  child: ChildProcess;
  niceness: number;
  timer: NodeJS.Timeout;
}
const idle: IdleChild[] = [];

/** An idle child no longer holds this process open (its channel and handle are unreferenced). */
function setHeld(child: ChildProcess, held: boolean) {
  const channel = child.channel as { ref?: () => void; unref?: () => void } | null | undefined;
  if (held) {
    child.ref();
    channel?.ref?.();
  } else {
    child.unref();
    channel?.unref?.();
  }
}

function takeIdle(niceness: number): ChildProcess | undefined {
  const i = idle.findIndex((c) => c.niceness === niceness && c.child.connected);
  if (i < 0) return undefined;
  const [{ child, timer }] = idle.splice(i, 1);
  clearTimeout(timer);
  setHeld(child, true);
  return child;
}

function keepIdle(child: ChildProcess, niceness: number) {
  if (idle.length >= MAX_IDLE_CHILDREN || !child.connected) {
    if (child.connected) child.disconnect(); // ts-entry.mjs exits on this
    return;
  }
  const entry: IdleChild = { child, niceness, timer: setTimeout(() => release(entry), IDLE_CHILD_MS) };
  entry.timer.unref();
  setHeld(child, false);
  idle.push(entry);
}

function release(entry: IdleChild) {
  const i = idle.indexOf(entry);
  if (i >= 0) idle.splice(i, 1);
  clearTimeout(entry.timer);
  if (entry.child.connected) entry.child.disconnect();
}

/** Ends every idle child (they also end after IDLE_CHILD_MS, and with this process). */
export function endIdlePyramidChildren(): void {
  for (const entry of [...idle]) release(entry);
}

function forkChild(niceness: number): ChildProcess {
  const child = tsChild(ENTRY, { niceness });
  // An idle child that ends (killed, out of memory) is not handed out again.
  child.once('exit', () => {
    const entry = idle.find((c) => c.child === child);
    if (entry) release(entry);
  });
  return child;
}

type Outcome = { ok: true; result: PackResult } | { ok: false; error: unknown };

/**
 * Writes the slide's pyramid(s) and layers.json into a pack at `task.file` and makes its thumbnail
 * and label picture, in a child process (an idle one when there is one): resolves when the pack is
 * complete, rejects as writePyramid would have (the signal's reason when aborted) once the child has
 * been ended, with no pack left behind. A child that succeeded stays for the next pack.
 */
export function writePackInChild(
  task: PyramidTask,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<PackResult> {
  const { signal } = opts;
  signal?.throwIfAborted();
  return new Promise<PackResult>((resolve, reject) => {
    const warm = takeIdle(task.niceness);
    const child = warm ?? forkChild(task.niceness);
    const ungate = gateWhileBusy(child);
    let outcome: Outcome | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (signalName: NodeJS.Signals) => {
      if (!running(child)) return;
      // A stopped child would not act on SIGTERM until continued.
      ungate();
      child.kill(signalName);
    };
    /** Lets go of the child: its events, and the gate (which continues it if stopped). */
    const detach = () => {
      signal?.removeEventListener('abort', onAbort);
      child.off('message', onMessage);
      child.off('error', onError);
      child.off('exit', onExit);
      ungate();
    };
    /** Records the first outcome: a pack settles at once, a failure once the child has ended. */
    const conclude = (o: Outcome) => {
      if (outcome) return;
      outcome = o;
      if (o.ok) {
        detach();
        keepIdle(child, task.niceness);
        resolve(o.result);
        return;
      }
      stop('SIGTERM');
      killTimer = setTimeout(() => stop('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    const onAbort = () => conclude({ ok: false, error: signal!.reason });
    const onMessage = (m: FromChild) => {
      if (outcome) return;
      if (m.type === 'ready') child.send({ type: 'task', task } satisfies ToChild);
      else if (m.type === 'progress') opts.onProgress?.(m.done, m.total);
      else if (m.type === 'done') {
        const { type: _type, ...result } = m;
        conclude({ ok: true, result });
      } else conclude({ ok: false, error: fromChildError(m.error) });
    };
    const onError = (error: Error) => {
      // Not started at all (no pid): there is no exit to wait for.
      if (child.pid === undefined) {
        detach();
        reject(error);
      } else conclude({ ok: false, error });
    };
    const onExit = (code: number | null, signalName: NodeJS.Signals | null) => {
      detach();
      clearTimeout(killTimer);
      const error =
        outcome && !outcome.ok
          ? outcome.error
          : new Error(`pyramid process exited (${signalName ?? `code ${code}`}) before the pack was written`);
      // A killed child leaves what it had written; nothing writes the file any more.
      void fs.rm(task.file, { force: true }).finally(() => reject(error));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('message', onMessage);
    child.on('error', onError);
    child.on('exit', onExit);
    // A warm child asked for work when it was started; it gets this task at once.
    if (warm) child.send({ type: 'task', task } satisfies ToChild);
  });
}

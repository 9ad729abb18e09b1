// How a PATCH body reaches an upload's file on the local disk: straight from the Node request into
// two blocks of memory, each hashed (SHA-1, the checksum extension) and written at its position in the
// file, the next one filling while one is written. Browsers send a request body in 16–64 KiB pieces;
// taking each piece through @tus/server's web-stream conversion, three stream stages and one file
// write per piece cost the server four times the CPU of the upload itself (bench/README.md, uploads).
// A chunk is all or nothing: anything short of a whole, verified body cuts the file back to `offset`.
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';

/**
 * Bytes gathered before one hash update and one file write: small enough to stay in the CPU's cache
 * between the copy, the hash and the write (4 MiB blocks cost curl's 1 GiB PATCH 3.5 s of server CPU,
 * 256 KiB blocks 1.2–2.0 s), large enough that a browser's 16 KiB pieces make few writes.
 */
const BLOCK = 256 * 1024;
/** Blocks kept for the next requests (two per request being received). */
const spare: Buffer[] = [];
const takeBlock = () => spare.pop() ?? Buffer.allocUnsafeSlow(BLOCK);
const giveBlock = (b: Buffer) => {
  if (spare.length < 8) spare.push(b);
};

export interface ChunkOptions {
  /** Base64 SHA-1 the body must have (Upload-Checksum); none: not checked. */
  checksum?: string;
  /** Most bytes the body may have (what is left of the upload). */
  limit: number;
  /** Aborted when the request must stop (another request wants the upload's lock). */
  signal: AbortSignal;
}

/** Thrown (as tus errors are) when a body does not match its Upload-Checksum. */
export const CHECKSUM_MISMATCH = { status_code: 460, body: 'Checksum Mismatch\n' };
export const TOO_LARGE = { status_code: 413, body: "upload's size exceeded\n" };
/** A newer request took the upload's lock: 423, which clients retry (from HEAD's offset). */
export const ABORTED = { status_code: 423, body: 'Another request for this upload took over\n' };
const CUT_SHORT = { status_code: 400, body: 'The request body ended early\n' };

/** Writes `body` into `file` from `offset`; returns the new end of the upload. */
export async function writeChunkToFile(
  file: string,
  body: Readable,
  offset: number,
  opts: ChunkOptions,
): Promise<number> {
  const fd = await fsp.open(file, 'r+');
  const hash = opts.checksum ? crypto.createHash('sha1') : undefined;
  const blocks = [takeBlock(), takeBlock()];
  const inFlight = [false, false];
  let filling = 0;
  let filled = 0;
  let received = 0;
  let position = offset;
  /** The writes, one after another. */
  let writing: Promise<unknown> = Promise.resolve();

  /** Hashes the block being filled and writes it while the other one fills. */
  const flush = () => {
    const i = filling;
    const length = filled;
    const at = position;
    hash?.update(blocks[i].subarray(0, length));
    inFlight[i] = true;
    writing = writing.then(async () => {
      await fd.write(blocks[i], 0, length, at);
      inFlight[i] = false;
    });
    writing.catch(() => undefined); // looked at once the body has ended
    position += length;
    filling = 1 - i;
    filled = 0;
  };

  try {
    await new Promise<void>((resolve, reject) => {
      let done = false;
      const stop = (error: unknown) => {
        if (done) return;
        done = true;
        body.off('data', onData);
        body.pause();
        opts.signal.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => stop(ABORTED);
      /**
       * Copies `piece` from `from` on; true when it paused the body because the next block is still
       * being written (it resumes the body itself once the rest of the piece is in).
       */
      const take = (piece: Buffer, from: number): boolean => {
        while (from < piece.length) {
          const n = piece.copy(blocks[filling], filled, from);
          filled += n;
          from += n;
          if (filled < BLOCK) continue;
          const before = writing; // ends with the write of the block filled before this one
          flush();
          if (inFlight[filling]) {
            body.pause();
            const rest = from;
            before.then(() => {
              if (!done && !take(piece, rest)) body.resume();
            }, stop);
            return true;
          }
        }
        return false;
      };
      const onData = (piece: Buffer) => {
        received += piece.length;
        if (received > opts.limit) return stop(TOO_LARGE);
        take(piece, 0);
      };
      body.on('data', onData);
      body.once('end', () => {
        if (done) return;
        done = true;
        opts.signal.removeEventListener('abort', onAbort);
        resolve();
      });
      body.once('error', stop);
      body.once('close', () => stop(CUT_SHORT)); // after 'end' this does nothing
      if (opts.signal.aborted) return onAbort();
      opts.signal.addEventListener('abort', onAbort, { once: true });
    });
    if (filled > 0) flush();
    await writing;
    if (hash && hash.digest('base64') !== opts.checksum) throw CHECKSUM_MISMATCH;
    return position;
  } catch (error) {
    await writing.catch(() => undefined);
    await fd.truncate(offset).catch(() => undefined);
    throw error;
  } finally {
    await writing.catch(() => undefined);
    await fd.close().catch(() => undefined);
    blocks.forEach(giveBlock);
  }
}

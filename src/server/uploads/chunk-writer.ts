// How a PATCH body reaches an upload's file on the local disk: straight from the Node request into
// two blocks of memory, each hashed (SHA-1, the checksum extension) and written at its position in the
// file, the next one filling while one is written. Browsers send a request body in 16–64 KiB pieces;
// taking each piece through @tus/server's web-stream conversion, three stream stages and one file
// write per piece cost the server four times the CPU of the upload itself (bench/README.md, uploads).
// The blocks go to the disk with O_DIRECT, past the page cache: on this VM copying a written block
// into fresh page-cache pages was 55–60 % of the server's CPU for an upload (kernel
// `copy_folio_from_iter_atomic`, 3–4 s per GiB, the same for curl's body and for Chromium's;
// bench/README.md, uploads). Bytes that do not fill an aligned block of the file (the
// end of a chunk) and file systems that refuse O_DIRECT go through the page cache as before.
// A chunk is all or nothing: anything short of a whole, verified body cuts the file back to `offset`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';

/**
 * Bytes gathered before one hash update and one file write, large enough that a browser's 16 KiB
 * pieces make few writes. Through the page cache 256 KiB was best (4 MiB blocks left the CPU's cache
 * between the copy and the kernel's copy); with O_DIRECT there is no second copy, and 1 MiB blocks
 * cost curl's 1 GiB PATCH 1.2–1.4 s of server CPU against 2.3 s with 256 KiB (bench/README.md).
 */
const BLOCK = 1024 * 1024;
/** O_DIRECT needs the memory, the file position and the length aligned (to the device's block). */
const ALIGN = 4096;
const O_DIRECT = fs.constants.O_DIRECT;
/** Blocks kept for the next requests (two per request being received). */
const spare: Buffer[] = [];
/**
 * A block whose memory starts on a page boundary: a WebAssembly memory is page-aligned, a Buffer's
 * memory is not (O_DIRECT writes from it fail with EINVAL).
 */
const takeBlock = () => spare.pop() ?? Buffer.from(new WebAssembly.Memory({ initial: BLOCK / 65536 }).buffer);
const giveBlock = (b: Buffer) => {
  if (spare.length < 8) spare.push(b);
};
/** Off once a file system refused O_DIRECT (opening, or a write of aligned memory). */
let directWrites = O_DIRECT !== undefined;

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

/** Writes `length` bytes of `buf` from `from` at `at`; a short write is continued. */
async function writeAll(h: fsp.FileHandle, buf: Buffer, from: number, length: number, at: number) {
  while (length > 0) {
    const { bytesWritten } = await h.write(buf, from, length, at);
    if (bytesWritten <= 0) throw new Error('The upload file took no bytes');
    from += bytesWritten;
    length -= bytesWritten;
    at += bytesWritten;
  }
}

/** The upload's file opened with O_DIRECT, or undefined where the file system refuses it. */
async function openDirect(file: string): Promise<fsp.FileHandle | undefined> {
  if (!directWrites) return undefined;
  try {
    return await fsp.open(file, fs.constants.O_RDWR | O_DIRECT);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EINVAL') directWrites = false;
    return undefined;
  }
}

/** Writes `body` into `file` from `offset`; returns the new end of the upload. */
export async function writeChunkToFile(
  file: string,
  body: Readable,
  offset: number,
  opts: ChunkOptions,
): Promise<number> {
  // The body's error while the file opens (a Readable with no 'error' listener would throw it).
  let early: { error: unknown } | undefined;
  const onEarly = (error: unknown) => (early ??= { error });
  body.once('error', onEarly);
  const [fd, opened] = await Promise.all([fsp.open(file, 'r+'), openDirect(file)]).catch((e: unknown) => {
    body.off('error', onEarly);
    throw e;
  });
  let direct = opened;
  const hash = opts.checksum ? crypto.createHash('sha1') : undefined;
  const blocks = [takeBlock(), takeBlock()];
  const inFlight = [false, false];
  let filling = 0;
  let filled = 0;
  let position = offset;
  /** Bytes before `offset` at the start of the first block (not the body's: not hashed). */
  let lead = 0;
  let received = 0;
  /** The writes, one after another. */
  let writing: Promise<unknown> = Promise.resolve();

  /** The aligned part of a block with O_DIRECT, the rest (the end of a chunk) through the page cache. */
  const writeBlock = async (buf: Buffer, length: number, at: number) => {
    let done = 0;
    const aligned = length - (length % ALIGN);
    if (direct && aligned > 0) {
      try {
        done = (await direct.write(buf, 0, aligned, at)).bytesWritten;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
        directWrites = false; // this file system takes O_DIRECT opens but not the writes
        await direct.close().catch(() => undefined);
        direct = undefined;
      }
    }
    await writeAll(fd, buf, done, length - done, at + done);
  };

  /** Hashes the block being filled and writes it while the other one fills. */
  const flush = () => {
    const i = filling;
    const length = filled;
    const at = position;
    hash?.update(blocks[i].subarray(lead, length));
    lead = 0;
    inFlight[i] = true;
    writing = writing.then(async () => {
      await writeBlock(blocks[i], length, at);
      inFlight[i] = false;
    });
    writing.catch(() => undefined); // looked at once the body has ended
    position += length;
    filling = 1 - i;
    filled = 0;
  };

  try {
    // Blocks start on aligned file positions: a chunk that starts inside an aligned block of the
    // file begins its first block with the bytes stored before `offset` (written again unchanged).
    if (direct && offset % ALIGN !== 0) {
      const before = offset % ALIGN;
      if ((await fd.read(blocks[0], 0, before, offset - before)).bytesRead === before) {
        lead = filled = before;
        position = offset - before;
      } else {
        await direct.close();
        direct = undefined;
      }
    }
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
      body.off('error', onEarly);
      if (early) return stop(early.error);
      if (body.closed) return stop(CUT_SHORT); // destroyed while the file opened
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
    await direct?.close().catch(() => undefined);
    blocks.forEach(giveBlock);
  }
}

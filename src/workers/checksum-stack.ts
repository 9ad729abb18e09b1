// A tus-js-client HTTP stack that adds the checksum extension (`Upload-Checksum: sha1 <base64>`) to
// every PATCH, so the server refuses a chunk damaged on the way (460) and the engine resends it; it
// also counts the bytes that really went on the wire, resends included.
// The request's body is the Blob slice itself, never the bytes read for the hash: Chromium sends a
// Blob from the file on its own side, while an ArrayBuffer body cost ten times the CPU and held the
// file in the page (bench/README.md, uploads). While one chunk is on its way the next one is read
// and hashed (WebCrypto, native), so hashing does not stand between two requests; only the digest
// is kept, not the bytes.
import { DefaultHttpStack, type HttpRequest, type HttpResponse, type HttpStack } from 'tus-js-client';
import { CHECKSUM_ALGORITHM } from '../api/uploads';

function base64(bytes: ArrayBuffer): string {
  let s = '';
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

/** SHA-1 of bytes in base64, as the server compares it. */
export async function sha1Base64(body: Blob | ArrayBuffer | ArrayBufferView): Promise<string> {
  if (body instanceof Blob) return base64(await crypto.subtle.digest('SHA-1', await body.arrayBuffer()));
  const buf = ArrayBuffer.isView(body)
    ? body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)
    : body;
  return base64(await crypto.subtle.digest('SHA-1', buf as ArrayBuffer));
}

/**
 * Reads a Blob into `buf` (grown when too small) through a BYOB reader, so that every chunk of an
 * upload is read into the same memory: a fresh 64 MiB ArrayBuffer per chunk (`Blob.arrayBuffer()`)
 * made the page's memory grow with the file, by several chunks that the browser did not give back
 * (bench/README.md, uploads). Undefined where Blob streams have no BYOB reader.
 */
async function readReusing(
  blob: Blob,
  buf: ArrayBuffer,
): Promise<{ buf: ArrayBuffer; bytes: Uint8Array<ArrayBuffer> } | undefined> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = blob.stream().getReader({ mode: 'byob' });
  } catch {
    return undefined;
  }
  let memory = buf.byteLength >= blob.size ? buf : new ArrayBuffer(blob.size);
  let filled = 0;
  try {
    while (filled < blob.size) {
      const { value, done } = await reader.read(new Uint8Array(memory, filled, blob.size - filled));
      if (!value) throw new Error('uploads: the file could not be read');
      memory = value.buffer as ArrayBuffer; // the read hands the (moved) memory back
      filled += value.byteLength;
      if (done) break;
    }
  } finally {
    reader.releaseLock();
  }
  if (filled !== blob.size) throw new Error('uploads: the file changed while it was read');
  return { buf: memory, bytes: new Uint8Array(memory, 0, filled) };
}

/**
 * Hashes the chunks of the file being sent, one ahead: `take` answers the digest of the chunk at
 * `offset` (hashed ahead when it was the expected one) and starts on the next, whose size the
 * adaptive chunk size gives. A digest made ahead but not asked for (a resume from another offset, a
 * new chunk size) is dropped.
 */
export class ChunkHasher {
  private ahead: { key: string; digest: Promise<string> } | undefined;
  /** The memory every chunk is read into; one hash at a time uses it. */
  private memory: ArrayBuffer = new ArrayBuffer(0);
  private queue: Promise<unknown> = Promise.resolve();
  constructor(
    private readonly source: Blob | undefined,
    private readonly nextSize: () => number,
  ) {}

  take(offset: number, body: Blob): Promise<string> {
    const key = `${offset}:${body.size}`;
    const digest = this.ahead?.key === key ? this.ahead.digest : this.hash(body);
    this.ahead = undefined;
    const next = offset + body.size;
    const size = this.nextSize();
    if (this.source && Number.isFinite(offset) && size > 0 && next < this.source.size) {
      const end = Math.min(this.source.size, next + size);
      // Only once this digest is made: two chunks read at once would only compete.
      const ahead = digest.then(() => this.hash(this.source!.slice(next, end)));
      ahead.catch(() => undefined);
      this.ahead = { key: `${next}:${end - next}`, digest: ahead };
    }
    return digest;
  }

  /** Forgets the chunk read ahead (the upload stopped) and the memory chunks are read into. */
  clear(): void {
    this.ahead = undefined;
    this.queue = this.queue.then(() => (this.memory = new ArrayBuffer(0)));
  }

  /** One chunk at a time, in the shared memory (WebCrypto copies the bytes when called). */
  private hash(body: Blob): Promise<string> {
    const run = this.queue.then(async () => {
      const read = await readReusing(body, this.memory);
      if (!read) return sha1Base64(body);
      this.memory = read.buf;
      return base64(await crypto.subtle.digest('SHA-1', read.bytes));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

class ChecksumRequest implements HttpRequest {
  private loaded = 0;
  constructor(
    private readonly inner: HttpRequest,
    private readonly onWire: (bytes: number) => void,
    private readonly hasher: ChunkHasher,
  ) {}
  getMethod() {
    return this.inner.getMethod();
  }
  getURL() {
    return this.inner.getURL();
  }
  setHeader(header: string, value: string) {
    this.inner.setHeader(header, value);
  }
  getHeader(header: string) {
    return this.inner.getHeader(header);
  }
  setProgressHandler(handler: (bytesSent: number) => void) {
    this.inner.setProgressHandler((sent) => {
      if (sent > this.loaded) this.onWire(sent - this.loaded);
      this.loaded = sent;
      handler(sent);
    });
  }
  async send(body?: unknown): Promise<HttpResponse> {
    if (this.getMethod() === 'PATCH' && body) {
      const digest =
        body instanceof Blob
          ? await this.hasher.take(Number(this.getHeader('Upload-Offset')), body)
          : await sha1Base64(body as ArrayBuffer);
      this.setHeader('Upload-Checksum', `${CHECKSUM_ALGORITHM} ${digest}`);
    }
    return this.inner.send(body);
  }
  abort() {
    this.hasher.clear();
    return this.inner.abort();
  }
  getUnderlyingObject() {
    return this.inner.getUnderlyingObject();
  }
}

export class ChecksumHttpStack implements HttpStack {
  private readonly inner = new DefaultHttpStack({});
  private readonly hasher: ChunkHasher;
  /**
   * `source` is the file being sent and `nextSize` the size of the next chunk (the adaptive one), so
   * the next chunk is hashed while this one is sent; without them each chunk is hashed just before
   * it is sent.
   */
  constructor(
    private readonly onWire: (bytes: number) => void = () => undefined,
    source?: Blob,
    nextSize: () => number = () => 0,
  ) {
    this.hasher = new ChunkHasher(source, nextSize);
  }
  createRequest(method: string, url: string): HttpRequest {
    return new ChecksumRequest(this.inner.createRequest(method, url), this.onWire, this.hasher);
  }
  getName() {
    return 'tessera-checksum';
  }
}

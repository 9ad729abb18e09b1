// A tus-js-client HTTP stack that adds the checksum extension (`Upload-Checksum: sha1 <base64>`) to
// every PATCH, so the server refuses a chunk damaged on the way (460) and the engine resends it; it
// also counts the bytes that really went on the wire, resends included. While a chunk is on its way
// the next one is hashed, so hashing does not stand between two requests.
import { DefaultHttpStack, type HttpRequest, type HttpResponse, type HttpStack } from 'tus-js-client';
import { CHECKSUM_ALGORITHM } from '../api/uploads';

function base64(bytes: ArrayBuffer): string {
  let s = '';
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

/** SHA-1 of a chunk (a Blob slice of at most 64 MiB: read once here, once more by the request). */
export async function sha1Base64(body: Blob | ArrayBuffer | ArrayBufferView): Promise<string> {
  const buf =
    body instanceof Blob
      ? await body.arrayBuffer()
      : ArrayBuffer.isView(body)
        ? body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)
        : body;
  return base64(await crypto.subtle.digest('SHA-1', buf as ArrayBuffer));
}

/** Hashes of ranges of the file being sent, computed ahead: `${start}:${length}` → digest. */
class Prefetch {
  private readonly ready = new Map<string, Promise<string>>();
  constructor(
    private readonly source: Blob | undefined,
    private readonly nextSize: () => number,
  ) {}

  /** The digest of `body`, which starts at `offset` of the file; then starts on the next range. */
  async digest(offset: number, body: Blob): Promise<string> {
    const key = `${offset}:${body.size}`;
    const hash = this.ready.get(key) ?? sha1Base64(body);
    this.ready.clear();
    const next = offset + body.size;
    if (this.source && Number.isFinite(offset) && next < this.source.size) {
      const end = Math.min(this.source.size, next + this.nextSize());
      const ahead = sha1Base64(this.source.slice(next, end));
      ahead.catch(() => undefined);
      this.ready.set(`${next}:${end - next}`, ahead);
    }
    return hash;
  }
}

class ChecksumRequest implements HttpRequest {
  private loaded = 0;
  constructor(
    private readonly inner: HttpRequest,
    private readonly onWire: (bytes: number) => void,
    private readonly prefetch: Prefetch,
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
      const offset = Number(this.getHeader('Upload-Offset'));
      const digest =
        body instanceof Blob
          ? await this.prefetch.digest(offset, body)
          : await sha1Base64(body as ArrayBuffer);
      this.setHeader('Upload-Checksum', `${CHECKSUM_ALGORITHM} ${digest}`);
    }
    return this.inner.send(body);
  }
  abort() {
    return this.inner.abort();
  }
  getUnderlyingObject() {
    return this.inner.getUnderlyingObject();
  }
}

export class ChecksumHttpStack implements HttpStack {
  private readonly inner = new DefaultHttpStack({});
  private readonly prefetch: Prefetch;
  /**
   * `source` is the file being sent and `nextSize` the size of the next chunk (the adaptive one), so
   * the next chunk's digest is ready when its request goes out; without them each chunk is hashed
   * just before it is sent.
   */
  constructor(
    private readonly onWire: (bytes: number) => void = () => undefined,
    source?: Blob,
    nextSize: () => number = () => 0,
  ) {
    this.prefetch = new Prefetch(source, nextSize);
  }
  createRequest(method: string, url: string): HttpRequest {
    return new ChecksumRequest(this.inner.createRequest(method, url), this.onWire, this.prefetch);
  }
  getName() {
    return 'tessera-checksum';
  }
}

// Signed, expiring file URLs: `/v2/files/<imageId>.<k>.<expiry>.<mac>` (k: o original, t thumbnail,
// l label). The MAC is HMAC-SHA256 under a key derived from the server's signing secret, cut to 128
// bits: any server process of the same database verifies it (stateless servers), it can never be
// mistaken for an access token, and the token stays under Fastify's 100-character parameter limit.
import crypto from 'node:crypto';
import { FILE_URL_TTL_SECONDS, PREVIEW_URL_CACHE_SECONDS } from '../../api/images';
import type { ImageFileKind } from './repository';

export interface FileClaim {
  imageId: string;
  kind: ImageFileKind;
  /** Unix seconds. */
  expires: number;
}

const CODES: Record<ImageFileKind, string> = { original: 'o', thumbnail: 't', label: 'l' };
const KINDS: Record<string, ImageFileKind> = { o: 'original', t: 'thumbnail', l: 'label' };
const TOKEN = /^([0-9a-f-]{36})\.([otl])\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/;

export interface FileSigner {
  sign(imageId: string, kind: ImageFileKind, nowMs?: number): FileClaim & { token: string };
  /** The claim of a genuine, unexpired token; undefined otherwise. */
  verify(token: string, nowMs?: number): FileClaim | undefined;
}

export function fileSigner(secret: Uint8Array): FileSigner {
  const key = crypto.createHmac('sha256', secret).update('tessera file urls v1').digest();
  const mac = (payload: string) =>
    crypto.createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');
  return {
    sign(imageId, kind, nowMs = Date.now()) {
      let expires = Math.ceil(nowMs / 1000) + FILE_URL_TTL_SECONDS;
      // Previews: one URL per 60 s window, so the browser's cache of it is actually hit (§9).
      if (kind !== 'original')
        expires = Math.ceil(expires / PREVIEW_URL_CACHE_SECONDS) * PREVIEW_URL_CACHE_SECONDS;
      const payload = `${imageId}.${CODES[kind]}.${expires}`;
      return { imageId, kind, expires, token: `${payload}.${mac(payload)}` };
    },
    verify(token, nowMs = Date.now()) {
      const m = TOKEN.exec(token);
      if (!m) return undefined;
      const [, imageId, code, exp, given] = m;
      const expected = Buffer.from(mac(`${imageId}.${code}.${exp}`));
      if (expected.length !== given.length || !crypto.timingSafeEqual(expected, Buffer.from(given)))
        return undefined;
      const expires = Number(exp);
      if (expires * 1000 < nowMs) return undefined;
      return { imageId, kind: KINDS[code], expires };
    },
  };
}

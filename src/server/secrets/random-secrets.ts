// Random secrets (refresh and e-mailed tokens, nonces, the generated signing secret) and the SHA-256
// under which a token is stored: like a password, only its hash is kept. Sign-in (auth/) and the
// e-mailed links (action-tokens/) both make them, so they belong to neither.
import crypto from 'node:crypto';

export const randomSecret = (bytes = 32) => crypto.randomBytes(bytes).toString('base64url');
export const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

// HTTP-level protections through the real app: links never follow a request's Host or forwarded
// headers, proxy headers count only from TRUST_PROXY's proxies, every response carries the security
// headers, and a browser write from another origin is refused.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { ADMIN, bearer, dbTargets, insertImageRow, lastMail, login, startApp, type TestApp } from './helpers';
import { errorText } from '../../src/api/errors';

const [target] = await dbTargets();

/** The link in the newest mail, quoted-printable undone. */
function mailedLink(dataDir: string): string | undefined {
  const text = lastMail(dataDir)
    ?.replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  return /https?:\/\/\S+\?token=\S+/.exec(text ?? '')?.[0];
}

/** A stand-in for Cloudflare's verifier that remembers the client address it was given. */
async function verifier() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push(new URLSearchParams(body).get('remoteip') ?? '');
      res.end(JSON.stringify({ success: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
  return { url, seen, close: () => new Promise((r) => server.close(r)) };
}

// An app with PUBLIC_URL, shared by the link and cross-origin tests (each app costs a migration).
const PUBLIC_URL = 'https://tessera.lab.example';
let withPublicUrl: TestApp;
beforeAll(async () => {
  withPublicUrl = await startApp(target, { PUBLIC_URL: `${PUBLIC_URL}/` });
});
afterAll(() => withPublicUrl.close());

describe('links and proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());
  beforeEach(() => fs.rmSync(path.join(t.dataDir, 'mail'), { recursive: true, force: true }));

  const forgot = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/auth/forgot-password',
      headers,
      payload: { email: ADMIN.email },
    });

  it('never builds a reset link from Host or X-Forwarded-Host', async () => {
    await forgot({ 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(mailedLink(t.dataDir)).toMatch(/^http:\/\/localhost:8080\/rp\?token=/);
    await forgot({ host: 'evil.example' });
    expect(mailedLink(t.dataDir)).toMatch(/^http:\/\/localhost:8080\/rp\?token=/);
    // Another port of this very host is another server: not trusted either.
    await forgot({ host: 'localhost:6666' });
    expect(mailedLink(t.dataDir)).toMatch(/^http:\/\/localhost:8080\//);
    // A name of this machine on the listening port is kept: a user on the lab network gets working links.
    await forgot({ host: '127.0.0.1:8080' });
    expect(mailedLink(t.dataDir)).toMatch(/^http:\/\/127\.0\.0\.1:8080\/rp\?token=/);
  });

  it('never builds invitation or download links from forwarded headers', async () => {
    const { access } = await login(t.app);
    const headers = { ...bearer(access), 'x-forwarded-host': 'evil.example', host: 'evil.example' };
    const invited = await t.app.inject({
      method: 'POST',
      url: '/v2/users',
      headers,
      payload: { user: { email: 'invitee@lab.test' } },
    });
    expect(invited.statusCode).toBe(200);
    expect(mailedLink(t.dataDir)).toMatch(/^http:\/\/localhost:8080\/register\?token=/);
    const again = await t.app.inject({
      method: 'POST',
      url: `/v2/users/${invited.json().result.id}/invitation`,
      headers,
    });
    expect(again.statusCode).toBe(200);
    expect(mailedLink(t.dataDir)).toMatch(/^http:\/\/localhost:8080\/register\?token=/);
    const me = await t.app.inject({ method: 'GET', url: '/v2/auth/me', headers: bearer(access) });
    const { imageId } = await insertImageRow(t.app, { organizationId: me.json().user.organizationId });
    const download = await t.app.inject({
      method: 'GET',
      url: `/v2/images/${imageId}/thumbnail/download-url`,
      headers,
    });
    expect(download.statusCode).toBe(200);
    expect(download.json().url).toMatch(/^http:\/\/localhost:8080\/v2\/files\//);
  });

  it('uses PUBLIC_URL for every link when it is set', async () => {
    const p = withPublicUrl;
    await p.app.inject({
      method: 'POST',
      url: '/v2/auth/forgot-password',
      headers: { host: '127.0.0.1:8080', 'x-forwarded-host': 'evil.example' },
      payload: { email: ADMIN.email },
    });
    expect(mailedLink(p.dataDir)).toMatch(/^https:\/\/tessera\.lab\.example\/rp\?token=/);
  });

  it('refuses a TRUST_PROXY that names no proxy, and a PUBLIC_URL with a path', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'loopback',
    ]);
    expect(() => loadConfig({ PUBLIC_URL: 'https://lab.example/tessera' })).toThrow(/PUBLIC_URL/);
  });

  it('takes the client address from X-Forwarded-For only when the proxy is named in TRUST_PROXY', async () => {
    const bot = await verifier();
    const env = { TURNSTILE_SECRET: 's', TURNSTILE_VERIFY_URL: bot.url };
    const signIn = (app: TestApp, remoteAddress: string) =>
      app.app.inject({
        method: 'POST',
        url: '/v2/auth/login',
        remoteAddress,
        headers: { 'x-forwarded-for': '203.0.113.9' },
        payload: { ...ADMIN, cloudflareToken: 'human' },
      });
    const app = await startApp(target, { ...env, TRUST_PROXY: '10.0.0.5' });
    try {
      // A sender TRUST_PROXY does not name: its X-Forwarded-For is ignored; the named proxy's is taken.
      expect((await signIn(app, '10.0.0.7')).statusCode).toBe(200);
      expect((await signIn(app, '10.0.0.5')).statusCode).toBe(200);
      expect(bot.seen).toEqual(['10.0.0.7', '203.0.113.9']);
    } finally {
      await app.close();
      await bot.close();
    }
  });
});

describe('security headers', () => {
  let t: TestApp;
  let access: string;
  // A built app of two files: the shell and one asset.
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-dist-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Tessera</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'export {};');
    t = await startApp(target, { TRUST_PROXY: '127.0.0.1', DIST_DIR: dist });
    access = (await login(t.app)).access;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const csp = (value: string | undefined) =>
    Object.fromEntries(
      (value ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v]),
    );

  it('sends the policy, nosniff and a referrer policy on pages, assets, the API and tiles', async () => {
    const urls = [
      '/',
      '/slides/some-page',
      '/assets/app.js',
      '/v2/health',
      '/v2/auth/me',
      `/v2/images/00000000-0000-4000-8000-000000000000/tiles/layers.json`,
    ];
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(access) });
      expect(res.statusCode, url).toBeLessThan(500);
      const policy = csp(res.headers['content-security-policy'] as string | undefined);
      expect(policy['script-src'], url).toEqual(["'self'"]);
      expect(policy['frame-ancestors'], url).toEqual(["'none'"]);
      expect(policy['img-src'], url).toEqual(["'self'", 'blob:', 'data:']);
      expect(policy['worker-src'], url).toEqual(["'self'", 'blob:']);
      expect(policy['object-src'], url).toEqual(["'none'"]);
      expect(policy['upgrade-insecure-requests'], url).toBeUndefined();
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });

  it('sends Strict-Transport-Security only on requests that arrived over HTTPS', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/v2/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/v2/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(proxied.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // The same header from a sender TRUST_PROXY does not name proves nothing.
    const forged = await t.app.inject({
      method: 'GET',
      url: '/v2/health',
      remoteAddress: '192.0.2.1',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('cross-origin writes', () => {
  let t: TestApp;
  let cookie: string;
  let access: string;
  let invitee: string;
  beforeAll(async () => {
    t = withPublicUrl;
    const signedIn = await login(t.app);
    access = signedIn.access;
    cookie = signedIn.res.cookies.find((c) => c.name === 'tessera_at')!.value;
    const invited = await t.app.inject({
      method: 'POST',
      url: '/v2/users',
      headers: bearer(access),
      payload: { user: { email: 'invitee@lab.test' } },
    });
    invitee = invited.json().result.id;
  });

  const resend = (
    headers: Record<string, string>,
    cookies: Record<string, string> = { tessera_at: cookie },
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/v2/users/${invitee}/invitation`,
      headers: { host: 'localhost:8080', ...headers },
      cookies,
    });

  it('refuses a cookie-authenticated write from another origin, port or site', async () => {
    const foreign: Record<string, string>[] = [
      { origin: 'http://localhost:6666' },
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'same-site', origin: 'http://localhost:6666' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const res = await resend(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().message).toBe(errorText('CROSS_ORIGIN'));
    }
    // Nor can such a page sign the user out: the session still works afterwards.
    const out = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/logout',
      headers: { 'sec-fetch-site': 'same-site' },
      cookies: { tessera_at: cookie },
    });
    expect(out.statusCode).toBe(403);
    const me = await t.app.inject({ method: 'GET', url: '/v2/auth/me', cookies: { tessera_at: cookie } });
    expect(me.statusCode).toBe(200);
  });

  it('lets the app’s own writes, programs without a browser and bearer calls through', async () => {
    const own: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:8080' },
      { origin: 'http://localhost:8080' },
      { origin: PUBLIC_URL },
      {},
    ];
    for (const headers of own) {
      const res = await resend(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
    }
    const bearerCall = await resend({ origin: 'http://evil.example', ...bearer(access) }, {});
    expect(bearerCall.statusCode).toBe(200);
    // Reads are never refused.
    const read = await t.app.inject({
      method: 'GET',
      url: '/v2/auth/me',
      headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      cookies: { tessera_at: cookie },
    });
    expect(read.statusCode).toBe(200);
  });
});

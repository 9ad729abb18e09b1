// Every /v2/auth call's success and failure paths, through HTTP, on PGlite and (when it answers) PostgreSQL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { eq } from 'drizzle-orm';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../src/api/constants';
import { createActionToken } from '../../src/server/action-tokens/tokens';
import { refreshTokens } from '../../src/server/db/schema';
import { MAX_FAILURES_PER_ACCOUNT } from '../../src/server/rate-limits/sign-in';
import { ADMIN, addUser, bearer, dbTargets, lastMail, login, startApp, type TestApp } from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

describe.each(targets)('auth on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/v2/auth${url}`, payload: payload as object, headers });

  describe('login', () => {
    it('signs in with the right password, returning tokens in the body and as httpOnly cookies', async () => {
      const res = await post('/login', { email: ADMIN.email.toUpperCase(), password: ADMIN.password });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user.email).toBe(ADMIN.email);
      expect(body.accessToken.token.split('.')).toHaveLength(3);
      const accessMinutes = (Date.parse(body.accessToken.expires) - Date.now()) / 60_000;
      expect(accessMinutes).toBeGreaterThan(13);
      expect(accessMinutes).toBeLessThanOrEqual(15);
      const refreshDays = (Date.parse(body.refreshToken.expires) - Date.now()) / 86_400_000;
      expect(refreshDays).toBeGreaterThan(6.9);
      const cookies = res.cookies;
      const access = cookies.find((c) => c.name === 'tessera_at');
      const refresh = cookies.find((c) => c.name === 'tessera_rt');
      expect(access?.httpOnly).toBe(true);
      expect(access?.sameSite).toBe('Lax');
      expect(refresh?.path).toBe('/v2/auth');
      expect(refresh?.value).toBe(body.refreshToken.token);
    });

    it('refuses a wrong password and an unknown e-mail with the same message', async () => {
      const wrong = await post('/login', { email: ADMIN.email, password: 'nope-nope' });
      const unknown = await post('/login', { email: 'ghost@lab.test', password: 'nope-nope' });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json().message).toBe(errorText('INVALID_CREDENTIALS'));
      expect(unknown.json().message).toBe(errorText('INVALID_CREDENTIALS'));
    });

    it('names the missing or malformed field', async () => {
      const missing = await post('/login', { email: ADMIN.email });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toMatch(/^body\.password: /);
      const badEmail = await post('/login', { email: 'not-an-email', password: 'x' });
      expect(badEmail.statusCode).toBe(400);
      expect(badEmail.json().message).toBe('body.email: Enter a valid e-mail address');
    });

    it('answers malformed JSON with a 400, not a 500', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('The request body is not valid JSON');
    });

    it('refuses an account that is not active', async () => {
      await addUser(t.app, { email: 'pending@lab.test', password: 'pending-pass', status: 'pending' });
      const res = await post('/login', { email: 'pending@lab.test', password: 'pending-pass' });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(errorText('USER_INACTIVE'));
    });

    it('rate-limits repeated failures per account, even for the right password afterwards', async () => {
      await addUser(t.app, { email: 'target@lab.test', password: 'target-pass' });
      for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++)
        expect((await post('/login', { email: 'target@lab.test', password: `wrong-${i}` })).statusCode).toBe(
          401,
        );
      const blocked = await post('/login', { email: 'target@lab.test', password: 'target-pass' });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toBe(errorText('TOO_MANY_SIGN_INS'));
      // Other accounts are unaffected.
      expect((await post('/login', ADMIN)).statusCode).toBe(200);
    });
  });

  describe('me and tokens', () => {
    it('answers /me with the user, organization and effective policies, by bearer and by cookie', async () => {
      const { access } = await login(t.app);
      const byBearer = await t.app.inject({ method: 'GET', url: '/v2/auth/me', headers: bearer(access) });
      expect(byBearer.statusCode).toBe(200);
      expect(byBearer.json().user.email).toBe(ADMIN.email);
      expect(byBearer.json().organization.name).toBe('Tessera Platform');
      expect(byBearer.json().effectivePolicies).toContain('superAdmin');
      const byCookie = await t.app.inject({
        method: 'GET',
        url: '/v2/auth/me',
        cookies: { tessera_at: access },
      });
      expect(byCookie.statusCode).toBe(200);
    });

    it('refuses a missing, forged or expired token', async () => {
      const none = await t.app.inject({ method: 'GET', url: '/v2/auth/me' });
      expect(none.statusCode).toBe(401);
      expect(none.json().message).toBe(errorText('NOT_LOGGED_IN'));
      const { access } = await login(t.app);
      const [h, p] = access.split('.');
      const forged = await t.app.inject({
        method: 'GET',
        url: '/v2/auth/me',
        headers: bearer(`${h}.${p}.AAAA`),
      });
      expect(forged.statusCode).toBe(401);
      expect(forged.json().message).toBe(errorText('INVALID_TOKEN'));
      const otherKey = await new SignJWT({ org: 'x' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('x')
        .setAudience('tessera')
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode('some other secret'));
      expect(
        (await t.app.inject({ method: 'GET', url: '/v2/auth/me', headers: bearer(otherKey) })).statusCode,
      ).toBe(401);
      const expired = await t.app.ctx.sessions.signAccess({ userId: 'u', organizationId: 'o' });
      const payload = JSON.parse(Buffer.from(expired.token.split('.')[1], 'base64url').toString());
      expect(payload.exp - payload.iat).toBe(15 * 60);
    });

    it('rotates refresh tokens and revokes the family when an old one is reused', async () => {
      const { refresh } = await login(t.app);
      const first = await post('/refresh', { token: refresh });
      expect(first.statusCode).toBe(200);
      const next = first.json().refreshToken.token;
      expect(next).not.toBe(refresh);
      // Once the grace window for tabs refreshing together has passed (security-sessions.test.ts)…
      const pastGrace = new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000);
      await t.app.ctx.db
        .update(refreshTokens)
        .set({ usedAt: pastGrace })
        .where(eq(refreshTokens.id, refresh.split('.')[0]));
      // …replaying the spent token ends the whole family…
      const replay = await post('/refresh', { token: refresh });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().message).toBe(errorText('REFRESH_TOKEN_REUSED'));
      // …so the newest token stops working too.
      const after = await post('/refresh', { token: next });
      expect(after.statusCode).toBe(401);
    });

    it('refreshes from the cookie alone, and refuses garbage', async () => {
      const { refresh } = await login(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/auth/refresh',
        cookies: { tessera_rt: refresh },
      });
      expect(res.statusCode).toBe(200);
      expect((await post('/refresh', { token: 'garbage' })).statusCode).toBe(401);
      expect((await post('/refresh', {})).statusCode).toBe(401);
    });

    it('logs out by revoking the refresh family', async () => {
      const { refresh } = await login(t.app);
      expect((await post('/logout', { token: refresh })).statusCode).toBe(200);
      expect((await post('/refresh', { token: refresh })).statusCode).toBe(401);
    });
  });

  describe('passwords', () => {
    it('changes the password only with the right old one', async () => {
      await addUser(t.app, { email: 'changer@lab.test', password: 'old-password' });
      const { access } = await login(t.app, 'changer@lab.test', 'old-password');
      const wrong = await post(
        '/change-password',
        { oldPassword: 'nope', newPassword: 'new-password-1' },
        bearer(access),
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe(errorText('WRONG_PASSWORD'));
      const short = await post(
        '/change-password',
        { oldPassword: 'old-password', newPassword: 'short' },
        bearer(access),
      );
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toMatch(/at least 8 characters/);
      const ok = await post(
        '/change-password',
        { oldPassword: 'old-password', newPassword: 'new-password-1' },
        bearer(access),
      );
      expect(ok.statusCode).toBe(200);
      expect((await post('/login', { email: 'changer@lab.test', password: 'old-password' })).statusCode).toBe(
        401,
      );
      expect(
        (await post('/login', { email: 'changer@lab.test', password: 'new-password-1' })).statusCode,
      ).toBe(200);
    });

    it('mails a single-use reset link, and answers the same for unknown e-mails', async () => {
      await addUser(t.app, { email: 'forgetful@lab.test', password: 'forgotten-1' });
      const unknown = await post('/forgot-password', { email: 'nobody@lab.test' });
      expect(unknown.statusCode).toBe(200);
      expect(lastMail(t.dataDir) ?? '').not.toContain('nobody@lab.test');
      const known = await post('/forgot-password', { email: 'forgetful@lab.test' });
      expect(known.json()).toEqual(unknown.json());
      const mail = lastMail(t.dataDir)!;
      expect(mail).toContain('To: forgetful@lab.test');
      const token = decodeURIComponent(
        /\/rp\?token=([^\s]+)/.exec(mail.replace(/=\n/g, ''))![1].replace(/=3D/g, '='),
      );
      const reset = await post('/reset-password', { token, password: 'remembered-2' });
      expect(reset.statusCode).toBe(200);
      const again = await post('/reset-password', { token, password: 'remembered-3' });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(errorText('INVALID_RESET_TOKEN'));
      expect(
        (await post('/login', { email: 'forgetful@lab.test', password: 'remembered-2' })).statusCode,
      ).toBe(200);
    });
  });

  describe('activation, registration, app access', () => {
    it('activates an invited user with token and password, and signs them in', async () => {
      const id = await addUser(t.app, { email: 'invited@lab.test', status: 'pending' });
      const token = await createActionToken(t.app.ctx.db, id, 'activate', 60_000);
      const bad = await post('/activate-user', { token: 'wrong', password: 'welcome-123' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(errorText('INVALID_ACTIVATION_TOKEN'));
      const ok = await post('/activate-user', { token, password: 'welcome-123' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().user.status).toBe('active');
      expect((await post('/login', { email: 'invited@lab.test', password: 'welcome-123' })).statusCode).toBe(
        200,
      );
    });

    it('takes a registration request and mails the administrator', async () => {
      const bad = await post('/register-request', { email: 'new@lab.test' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^body\.name: /);
      const ok = await post('/register-request', {
        email: 'new@lab.test',
        name: 'New Person',
        organizationName: 'Lab',
      });
      expect(ok.statusCode).toBe(200);
    });

    it('allows /app when every required policy is effective, else 403', async () => {
      await addUser(t.app, {
        email: 'plain@lab.test',
        password: 'plain-pass',
        policies: ['manageOrganizationStudies'],
      });
      const admin = await login(t.app);
      const plain = await login(t.app, 'plain@lab.test', 'plain-pass');
      const need = { requiredPolicies: ['superAdmin'] };
      expect((await post('/app', need, bearer(admin.access))).statusCode).toBe(200);
      const denied = await post('/app', need, bearer(plain.access));
      expect(denied.statusCode).toBe(403);
      expect(denied.json().message).toBe(errorText('MISSING_POLICIES'));
      const studies = await post(
        '/app',
        { requiredPolicies: ['manageOrganizationStudies'] },
        bearer(plain.access),
      );
      expect(studies.statusCode).toBe(200);
    });

    it('says Google sign-in is off when no client id is configured', async () => {
      const init = await post('/google-login-init');
      expect(init.statusCode).toBe(200);
      const res = await post('/google-login', { token: 'x', nonce: init.json().nonce });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(errorText('GOOGLE_DISABLED'));
    });
  });

  it('describes every auth route in /v2/openapi.json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of ['login', 'refresh', 'me', 'change-password', 'forgot-password', 'activate-user', 'app'])
      expect(paths).toContain(`/v2/auth/${p}`);
  });

  it('answers unknown calls with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No such call: GET /v2/nothing-here');
  });
});

/** A local stand-in for Google's key server and Cloudflare's verifier: real HTTP, real signatures. */
async function thirdPartyServer() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const server = http.createServer((req, res) => {
    if (req.url === '/certs') return res.end(JSON.stringify({ keys: [jwk] }));
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () =>
      res.end(JSON.stringify({ success: new URLSearchParams(body).get('response') === 'human' })),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idToken = (claims: Record<string, unknown>, aud = 'client-123') =>
    new SignJWT({ email_verified: true, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer('https://accounts.google.com')
      .setAudience(aud)
      .setExpirationTime('5m')
      .sign(privateKey);
  return { base, idToken, close: () => new Promise((r) => server.close(r)) };
}

describe('Google sign-in and the bot check, when configured', async () => {
  const [target] = targets;
  const third = await thirdPartyServer();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target, {
      GOOGLE_CLIENT_ID: 'client-123',
      GOOGLE_JWKS_URL: `${third.base}/certs`,
      TURNSTILE_SECRET: 'secret',
      TURNSTILE_VERIFY_URL: `${third.base}/verify`,
    });
  });
  afterAll(async () => {
    await t.close();
    await third.close();
  });
  const post = (url: string, payload?: unknown) =>
    t.app.inject({ method: 'POST', url: `/v2/auth${url}`, payload: payload as object });

  it('verifies the ID token signature, audience and nonce', async () => {
    const { nonce } = (await post('/google-login-init')).json();
    const good = await third.idToken({ email: ADMIN.email, nonce });
    const wrongNonce = await post('/google-login', {
      token: await third.idToken({ email: ADMIN.email, nonce: 'other' }),
      nonce,
    });
    expect(wrongNonce.statusCode).toBe(401);
    expect(wrongNonce.json().message).toBe(errorText('GOOGLE_TOKEN_INVALID'));
    const wrongAud = await post('/google-login', {
      token: await third.idToken({ email: ADMIN.email, nonce }, 'elsewhere'),
      nonce,
    });
    expect(wrongAud.statusCode).toBe(401);
    const ok = await post('/google-login', { token: good, nonce });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.email).toBe(ADMIN.email);
    // The nonce is single use.
    expect((await post('/google-login', { token: good, nonce })).statusCode).toBe(401);
  });

  it('requires a passing bot-check token on login', async () => {
    const without = await post('/login', ADMIN);
    expect(without.statusCode).toBe(400);
    expect(without.json().message).toBe(errorText('BOT_CHECK_FAILED'));
    expect((await post('/login', { ...ADMIN, cloudflareToken: 'robot' })).statusCode).toBe(400);
    expect((await post('/login', { ...ADMIN, cloudflareToken: 'human' })).statusCode).toBe(200);
  });

  it('publishes the Google client id for the sign-in page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/auth/options' });
    expect(res.json().googleClientId).toBe('client-123');
  });
});

// Sessions that end when they should, sign-in and mail limits that hold under concurrency and across
// addresses, e-mail checks that tell nothing outside the caller's tree, and several tabs refreshing
// one session together (docs/security.md), through HTTP on PGlite and (when it answers) PostgreSQL.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOGIN_LIMITS,
  MAIL_LIMITS,
  REFRESH_REUSE_GRACE_SECONDS,
  SESSION_CHECK_CACHE_SECONDS,
} from '../../src/api/constants';
import { buildApp } from '../../src/server/app';
import { refreshTokens } from '../../src/server/db/schema';
import {
  addLabFixture,
  addMember,
  addUser,
  bearer,
  dbTargets,
  lastMail,
  login,
  startApp,
  type LabFixture,
  type TestApp,
} from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

describe.each(targets)('security of sessions and limits on $name', (target) => {
  let t: TestApp;
  let f: LabFixture;
  beforeAll(async () => {
    t = await startApp(target);
    f = await addLabFixture(t.app);
  });
  afterAll(() => t.close());

  const post = (url: string, payload?: unknown, headers: Record<string, string> = {}, ip = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: `/v2${url}`,
      payload: payload as object,
      headers,
      remoteAddress: ip,
    });
  const me = (access: string, app = t.app) =>
    app.inject({ method: 'GET', url: '/v2/auth/me', headers: bearer(access) });
  const resetTokenIn = (mail: string) =>
    decodeURIComponent(/\/rp\?token=([^\s]+)/.exec(mail.replace(/=\r?\n/g, ''))![1].replace(/=3D/g, '='));
  const ageUse = (refresh: string, seconds: number) =>
    t.app.ctx.db
      .update(refreshTokens)
      .set({ usedAt: new Date(Date.now() - seconds * 1000) })
      .where(eq(refreshTokens.id, refresh.split('.')[0]));

  describe('sessions end when they should', () => {
    it('sign-out ends the access token at once', async () => {
      const { access, refresh } = await login(t.app);
      expect((await me(access)).statusCode).toBe(200);
      expect((await post('/auth/logout', { token: refresh })).statusCode).toBe(200);
      const after = await me(access);
      expect(after.statusCode).toBe(401);
      expect(after.json().message).toBe(errorText('INVALID_TOKEN'));
    });

    it('a password change ends every other session at once, and keeps the one that changed it', async () => {
      await addUser(t.app, { email: 'two-tabs@lab.test', password: 'first-password' });
      const here = await login(t.app, 'two-tabs@lab.test', 'first-password');
      const elsewhere = await login(t.app, 'two-tabs@lab.test', 'first-password');
      expect((await me(elsewhere.access)).statusCode).toBe(200);
      const changed = await post(
        '/auth/change-password',
        { oldPassword: 'first-password', newPassword: 'second-password' },
        bearer(here.access),
      );
      expect(changed.statusCode).toBe(200);
      expect((await me(elsewhere.access)).statusCode).toBe(401);
      expect((await post('/auth/refresh', { token: elsewhere.refresh })).statusCode).toBe(401);
      expect((await me(here.access)).statusCode).toBe(200);
      expect((await post('/auth/refresh', { token: here.refresh })).statusCode).toBe(200);
    });

    it('a password reset ends the access tokens of every session at once', async () => {
      await addUser(t.app, { email: 'reset-me@lab.test', password: 'old-password-1' });
      const { access } = await login(t.app, 'reset-me@lab.test', 'old-password-1');
      await post('/auth/forgot-password', { email: 'reset-me@lab.test' });
      const token = resetTokenIn(lastMail(t.dataDir)!);
      expect((await post('/auth/reset-password', { token, password: 'new-password-1' })).statusCode).toBe(
        200,
      );
      expect((await me(access)).statusCode).toBe(401);
    });

    it('a newer reset link makes the older ones stop working', async () => {
      await addUser(t.app, { email: 'twice@lab.test', password: 'old-password-2' });
      await post('/auth/forgot-password', { email: 'twice@lab.test' });
      const older = resetTokenIn(lastMail(t.dataDir)!);
      await post('/auth/forgot-password', { email: 'twice@lab.test' });
      const newer = resetTokenIn(lastMail(t.dataDir)!);
      expect(newer).not.toBe(older);
      const stale = await post('/auth/reset-password', { token: older, password: 'new-password-2' });
      expect(stale.statusCode).toBe(400);
      expect(stale.json().message).toBe(errorText('INVALID_RESET_TOKEN'));
      expect(
        (await post('/auth/reset-password', { token: newer, password: 'new-password-2' })).statusCode,
      ).toBe(200);
    });

    it(`another server process on the database refuses an ended session within ${SESSION_CHECK_CACHE_SECONDS} s`, async () => {
      const other = await buildApp({ config: t.config, database: t.app.ctx.database });
      await other.ready();
      try {
        const { access, refresh } = await login(t.app);
        expect((await me(access, other)).statusCode).toBe(200);
        expect((await post('/auth/logout', { token: refresh })).statusCode).toBe(200);
        expect((await me(access)).statusCode).toBe(401);
        await new Promise((r) => setTimeout(r, SESSION_CHECK_CACHE_SECONDS * 1000 + 200));
        expect((await me(access, other)).statusCode).toBe(401);
      } finally {
        await other.close();
      }
    });
  });

  describe('limits that hold', () => {
    const limit = LOGIN_LIMITS.perAccountAddress.max;

    it(`of 40 simultaneous wrong passwords at most ${limit} are checked; the rest get the lockout answer`, async () => {
      await addUser(t.app, { email: 'guessed@lab.test', password: 'the-right-one' });
      const tries = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          post('/auth/login', { email: 'guessed@lab.test', password: `guess-${i}` }, {}, '203.0.113.7'),
        ),
      );
      const checked = tries.filter((r) => r.statusCode === 401);
      const locked = tries.filter((r) => r.statusCode === 429);
      expect(checked.length).toBeLessThanOrEqual(limit);
      expect(checked.length + locked.length).toBe(40);
      for (const r of locked) expect(r.json().message).toBe(errorText('TOO_MANY_SIGN_INS'));
      const right = await post(
        '/auth/login',
        { email: 'guessed@lab.test', password: 'the-right-one' },
        {},
        '203.0.113.7',
      );
      expect(right.statusCode).toBe(429);
    });

    it('a lockout from one address does not lock the owner out from theirs', async () => {
      await addUser(t.app, { email: 'owner@lab.test', password: 'owners-password' });
      for (let i = 0; i < limit; i++)
        expect(
          (await post('/auth/login', { email: 'owner@lab.test', password: `nope-${i}` }, {}, '198.51.100.66'))
            .statusCode,
        ).toBe(401);
      const attacker = await post(
        '/auth/login',
        { email: 'owner@lab.test', password: 'nope' },
        {},
        '198.51.100.66',
      );
      expect(attacker.statusCode).toBe(429);
      const owner = await post(
        '/auth/login',
        { email: 'owner@lab.test', password: 'owners-password' },
        {},
        '198.51.100.1',
      );
      expect(owner.statusCode).toBe(200);
    });

    it('the account’s own ceiling holds over guesses spread across many addresses, until a reset', async () => {
      await addUser(t.app, { email: 'spread@lab.test', password: 'spread-password' });
      const ceiling = LOGIN_LIMITS.perAccount.max;
      const addresses = Array.from({ length: Math.ceil(ceiling / limit) }, (_, i) => `192.0.2.${i + 1}`);
      const answers = await Promise.all(
        addresses.map(async (ip) => {
          const codes: number[] = [];
          for (let i = 0; i < limit; i++)
            codes.push(
              (await post('/auth/login', { email: 'spread@lab.test', password: `x${i}` }, {}, ip)).statusCode,
            );
          return codes;
        }),
      );
      expect(answers.flat().filter((c) => c === 401)).toHaveLength(ceiling);
      const fresh = await post(
        '/auth/login',
        { email: 'spread@lab.test', password: 'spread-password' },
        {},
        '192.0.2.200',
      );
      expect(fresh.statusCode).toBe(429);
      expect(fresh.json().message).toBe(errorText('TOO_MANY_SIGN_INS'));
      // The owner gets back in by resetting the password, which proves the mailbox.
      await post('/auth/forgot-password', { email: 'spread@lab.test' }, {}, '192.0.2.200');
      const token = resetTokenIn(lastMail(t.dataDir)!);
      await post('/auth/reset-password', { token, password: 'spread-password-2' }, {}, '192.0.2.200');
      const back = await post(
        '/auth/login',
        { email: 'spread@lab.test', password: 'spread-password-2' },
        {},
        '192.0.2.200',
      );
      expect(back.statusCode).toBe(200);
    });

    it('forgot-password is throttled per account (known or not) and per address', async () => {
      await addUser(t.app, { email: 'mailed@lab.test', password: 'mailed-password' });
      const perAccount = MAIL_LIMITS.perAccount.max;
      for (const email of ['mailed@lab.test', 'nobody-here@lab.test']) {
        for (let i = 0; i < perAccount; i++)
          expect((await post('/auth/forgot-password', { email }, {}, '198.51.100.20')).statusCode).toBe(200);
        const more = await post('/auth/forgot-password', { email }, {}, '198.51.100.21');
        expect(more.statusCode).toBe(429);
        expect(more.json().message).toBe(errorText('TOO_MANY_MAILS'));
      }
      const perAddress = MAIL_LIMITS.perAddress.max;
      for (let i = 0; i < perAddress; i++)
        expect(
          (await post('/auth/forgot-password', { email: `a${i}@x.test` }, {}, '198.51.100.30')).statusCode,
        ).toBe(200);
      expect(
        (await post('/auth/forgot-password', { email: 'last@x.test' }, {}, '198.51.100.30')).statusCode,
      ).toBe(429);
    });

    it('registration requests, invitation resends and bug reports are throttled too', async () => {
      const max = MAIL_LIMITS.perAccount.max;
      const request = { name: 'Asker', email: 'asker@x.test', message: 'Let me in' };
      for (let i = 0; i < max; i++)
        expect((await post('/auth/register-request', request, {}, '198.51.100.40')).statusCode).toBe(200);
      expect((await post('/auth/register-request', request, {}, '198.51.100.41')).statusCode).toBe(429);

      const invited = await post('/users', { user: { email: 'invitee@lab.test' } }, bearer(f.orgAdmin.token));
      expect(invited.statusCode).toBe(200);
      const id = invited.json().result.id as string;
      for (let i = 0; i < max; i++)
        expect((await post(`/users/${id}/invitation`, undefined, bearer(f.orgAdmin.token))).statusCode).toBe(
          200,
        );
      const resend = await post(`/users/${id}/invitation`, undefined, bearer(f.orgAdmin.token));
      expect(resend.statusCode).toBe(429);
      expect(resend.json().message).toBe(errorText('TOO_MANY_MAILS'));

      for (let i = 0; i < max; i++)
        expect(
          (await post('/mail/send-bugs', { message: `bug ${i}` }, bearer(f.member.token))).statusCode,
        ).toBe(200);
      expect((await post('/mail/send-bugs', { message: 'again' }, bearer(f.member.token))).statusCode).toBe(
        429,
      );
    });
  });

  describe('enumeration', () => {
    const check = (token: string, email: string) =>
      t.app.inject({
        method: 'GET',
        url: `/v2/users/check-email?email=${encodeURIComponent(email)}`,
        headers: bearer(token),
      });

    it('check-email answers only who may create users, and only about their own organization tree', async () => {
      await addMember(t.app, { email: 'in-team-b@lab.test', organizationId: f.orgs.teamB });
      await addMember(t.app, { email: 'elsewhere@other.test', organizationId: f.orgs.other });
      expect((await check(f.member.token, 'in-team-b@lab.test')).statusCode).toBe(403);
      expect((await check(f.qc.token, 'elsewhere@other.test')).statusCode).toBe(403);
      expect((await check(f.orgAdmin.token, 'in-team-b@lab.test')).json()).toEqual({
        isEmailAvailable: false,
      });
      expect((await check(f.orgAdmin.token, 'elsewhere@other.test')).json()).toEqual({
        isEmailAvailable: true,
      });
      expect((await check(f.orgAdmin.token, 'free@lab.test')).json()).toEqual({ isEmailAvailable: true });
      expect((await check(f.superAdmin.token, 'elsewhere@other.test')).json()).toEqual({
        isEmailAvailable: false,
      });
    });
  });

  describe('several tabs refreshing one session', () => {
    it('simultaneous refreshes with one token all get the same new pair, and the session goes on', async () => {
      const { refresh } = await login(t.app);
      const tabs = await Promise.all([1, 2, 3].map(() => post('/auth/refresh', { token: refresh })));
      for (const tab of tabs) expect(tab.statusCode).toBe(200);
      const [first, ...others] = tabs.map((r) => r.json());
      for (const other of others) {
        expect(other.accessToken).toEqual(first.accessToken);
        expect(other.refreshToken).toEqual(first.refreshToken);
      }
      expect((await me(first.accessToken.token)).statusCode).toBe(200);
      expect((await post('/auth/refresh', { token: first.refreshToken.token })).statusCode).toBe(200);
    });

    it(`within ${REFRESH_REUSE_GRACE_SECONDS} s a used token answers the same pair; after, reuse ends the session`, async () => {
      const { refresh } = await login(t.app);
      const first = await post('/auth/refresh', { token: refresh });
      const second = await post('/auth/refresh', { token: refresh });
      expect(second.statusCode).toBe(200);
      expect(second.json().refreshToken).toEqual(first.json().refreshToken);
      await ageUse(refresh, REFRESH_REUSE_GRACE_SECONDS + 1);
      const stolen = await post('/auth/refresh', { token: refresh });
      expect(stolen.statusCode).toBe(401);
      expect(stolen.json().message).toBe(errorText('REFRESH_TOKEN_REUSED'));
      expect((await post('/auth/refresh', { token: first.json().refreshToken.token })).statusCode).toBe(401);
      expect((await me(first.json().accessToken.token)).statusCode).toBe(401);
    });
  });
});

// /v2/auth/*: sign-in, token refresh, password change and reset, activation, registration requests,
// application access and Google sign-in (spec §2.1, §7). Tokens go out as httpOnly cookies and in the body.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ActivateUserBody,
  AppAccessBody,
  AuthOptions,
  AuthResult,
  ChangePasswordBody,
  ForgotPasswordBody,
  GoogleLoginBody,
  LoginBody,
  Me,
  RefreshBody,
  RegisterRequestBody,
  ResetPasswordBody,
} from '../../api/auth';
import { Ok } from '../../api/common';
import { AuthText } from '../../api/messages';
import { apiError } from '../http/errors';
import { ACCESS_COOKIE, REFRESH_COOKIE, actorOf, loadActor } from '../http/authenticate';
import { linkOrigin } from '../http/origins';
import { toOrganization } from '../organizations/entities';
import { activateUser, findUser, findUserByEmail, setUserPassword, toUser } from '../users/repository';
import { hashPassword, verifyPassword } from './passwords';
import { consumeNonce, insertNonce, insertRegistrationRequest } from './repository';
import { forgetPasswordGenerated, isPasswordGenerated } from './generated-password';
import { actionLink } from '../action-tokens/links';
import { RESET_TTL_MS, createActionToken, dropActionTokens, spendActionToken } from '../action-tokens/tokens';
import { assertMailAllowed } from '../rate-limits/mail';
import { clearLoginLimits, loginSucceeded, reserveLoginAttempt } from '../rate-limits/sign-in';
import { randomSecret } from '../secrets/random-secrets';

const NONCE_TTL_MS = 5 * 60_000;
const Message = z.object({ message: z.string() });

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, sessions } = app.ctx;

  const setCookies = (reply: FastifyReply, result: AuthResult) => {
    const base = { httpOnly: true, sameSite: 'lax' as const, secure: 'auto' as const };
    reply.setCookie(ACCESS_COOKIE, result.accessToken.token, {
      ...base,
      path: '/',
      expires: new Date(result.accessToken.expires),
    });
    reply.setCookie(REFRESH_COOKIE, result.refreshToken.token, {
      ...base,
      path: '/v2/auth',
      expires: new Date(result.refreshToken.expires),
    });
  };

  const claimsFor = async (userId: string) => {
    const actor = await loadActor(app, userId);
    return actor && { userId: actor.user.id, organizationId: actor.organization.id };
  };

  const signIn = async (reply: FastifyReply, userId: string) => {
    const actor = await loadActor(app, userId);
    if (!actor) throw apiError('USER_INACTIVE');
    const result = await sessions.start({ userId, organizationId: actor.organization.id });
    setCookies(reply, result);
    return { ...result, user: toUser(actor.user) };
  };

  app.get('/options', { config: { public: true }, schema: { response: { 200: AuthOptions } } }, async () => ({
    googleClientId: app.ctx.config.googleClientId ?? null,
    turnstileSiteKey: app.ctx.config.turnstileSiteKey ?? null,
  }));

  app.post(
    '/login',
    { config: { public: true }, schema: { body: LoginBody, response: { 200: AuthResult } } },
    async (request, reply) => {
      const { email, password, cloudflareToken, nonceVal } = request.body;
      // Counted before the password is checked, so concurrent guesses cannot pass the limit.
      await reserveLoginAttempt(db, email, request.ip);
      if (app.ctx.botCheck) {
        const human = await app.ctx.botCheck.verify(cloudflareToken, request.ip);
        const nonceOk = nonceVal ? await consumeNonce(db, nonceVal) : true;
        if (!human || !nonceOk) throw apiError('BOT_CHECK_FAILED');
      }
      const user = await findUserByEmail(db, email);
      if (!(await verifyPassword(user?.passwordHash ?? null, password)) || !user)
        throw apiError('INVALID_CREDENTIALS');
      if (user.status !== 'active') throw apiError('USER_INACTIVE');
      await loginSucceeded(db, email, request.ip);
      return signIn(reply, user.id);
    },
  );

  app.post(
    '/refresh',
    { config: { public: true }, schema: { body: RefreshBody, response: { 200: AuthResult } } },
    async (request, reply) => {
      const token = request.body?.token ?? request.cookies[REFRESH_COOKIE];
      if (!token) throw apiError('INVALID_REFRESH_TOKEN');
      try {
        const result = await sessions.rotate(token, claimsFor);
        setCookies(reply, result);
        return result;
      } catch (error) {
        clearCookies(reply);
        throw error;
      }
    },
  );

  const clearCookies = (reply: FastifyReply) => {
    reply.clearCookie(ACCESS_COOKIE, { path: '/' });
    reply.clearCookie(REFRESH_COOKIE, { path: '/v2/auth' });
  };

  app.post(
    '/logout',
    { config: { public: true }, schema: { body: RefreshBody, response: { 200: Ok } } },
    async (request, reply) => {
      await sessions.end(request.body?.token ?? request.cookies[REFRESH_COOKIE]);
      clearCookies(reply);
      return { ok: true as const };
    },
  );

  app.get('/me', { schema: { response: { 200: Me } } }, async (request) => {
    const actor = actorOf(request);
    return {
      user: toUser(actor.user),
      organization: await toOrganization(db, actor.organization),
      effectivePolicies: actor.policies,
      passwordChangeAdvised: await isPasswordGenerated(db, actor.user.id),
    };
  });

  app.post(
    '/change-password',
    { schema: { body: ChangePasswordBody, response: { 200: Ok } } },
    async (request) => {
      const { user } = actorOf(request);
      if (!(await verifyPassword(user.passwordHash, request.body.oldPassword)))
        throw apiError('WRONG_PASSWORD');
      await setUserPassword(db, user.id, await hashPassword(request.body.newPassword));
      // The other sessions end (a thief's among them); this one goes on. Reset links out stop working.
      await sessions.revokeAllFor(user.id, request.sessionId);
      await dropActionTokens(db, user.id, 'reset');
      await forgetPasswordGenerated(db, user.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/forgot-password',
    { config: { public: true }, schema: { body: ForgotPasswordBody, response: { 200: Message } } },
    async (request) => {
      await assertMailAllowed(db, 'forgot-password', request.body.email, request.ip);
      const user = await findUserByEmail(db, request.body.email);
      if (user && user.status === 'active') {
        const token = await createActionToken(db, user.id, 'reset', RESET_TTL_MS);
        const link = actionLink(linkOrigin(app, request), 'reset', token);
        await app.ctx.mailer.send({
          to: user.email,
          subject: 'Reset your Tessera password',
          text: `Hello ${user.name || user.email},\n\nTo choose a new password, open this link within one hour:\n${link}\n\nIf you did not ask for this, ignore this e-mail.\n`,
        });
      }
      // Same answer either way: the response never tells whether an account exists.
      return { message: AuthText.resetSent };
    },
  );

  app.post(
    '/reset-password',
    { config: { public: true }, schema: { body: ResetPasswordBody, response: { 200: Ok } } },
    async (request) => {
      const userId = await spendActionToken(db, request.body.token, 'reset');
      if (!userId) throw apiError('INVALID_RESET_TOKEN');
      await setUserPassword(db, userId, await hashPassword(request.body.password));
      await sessions.revokeAllFor(userId);
      await forgetPasswordGenerated(db, userId);
      const user = await findUser(db, userId);
      if (user) await clearLoginLimits(db, user.email);
      return { ok: true as const };
    },
  );

  app.post(
    '/activate-user',
    { config: { public: true }, schema: { body: ActivateUserBody, response: { 200: AuthResult } } },
    async (request, reply) => {
      const userId = await spendActionToken(db, request.body.token, 'activate');
      const user = userId && (await findUser(db, userId));
      if (!user) throw apiError('INVALID_ACTIVATION_TOKEN');
      await activateUser(db, user.id, await hashPassword(request.body.password));
      return signIn(reply, user.id);
    },
  );

  app.post(
    '/register-request',
    { config: { public: true }, schema: { body: RegisterRequestBody, response: { 200: Ok } } },
    async (request) => {
      const body = request.body;
      await assertMailAllowed(db, 'register-request', body.email, request.ip);
      await insertRegistrationRequest(db, body);
      if (app.ctx.config.adminEmail)
        await app.ctx.mailer.send({
          to: app.ctx.config.adminEmail,
          subject: `Tessera registration request from ${body.name}`,
          replyTo: body.email,
          text: `${body.name} <${body.email}> asks for an account.\nOrganization: ${body.organizationName ?? '-'}\n\n${body.message ?? ''}\n`,
        });
      return { ok: true as const };
    },
  );

  app.post(
    '/app',
    { schema: { body: AppAccessBody, response: { 200: z.object({ allowed: z.literal(true) }) } } },
    async (request) => {
      const { policies } = actorOf(request);
      const missing = request.body.requiredPolicies.filter((p) => !policies.includes(p));
      if (missing.length) throw apiError('MISSING_POLICIES');
      return { allowed: true as const };
    },
  );

  app.post(
    '/google-login-init',
    { config: { public: true }, schema: { response: { 200: z.object({ nonce: z.string() }) } } },
    async () => {
      const nonce = randomSecret(24);
      await insertNonce(db, nonce, new Date(Date.now() + NONCE_TTL_MS));
      return { nonce };
    },
  );

  app.post(
    '/google-login',
    { config: { public: true }, schema: { body: GoogleLoginBody, response: { 200: AuthResult } } },
    async (request, reply) => {
      const verifier = app.ctx.google;
      if (!verifier) throw apiError('GOOGLE_DISABLED');
      const identity = await verifier.verify(request.body.token);
      if (!identity || identity.nonce !== request.body.nonce || !(await consumeNonce(db, request.body.nonce)))
        throw apiError('GOOGLE_TOKEN_INVALID');
      const user = await findUserByEmail(db, identity.email);
      if (!user || user.status !== 'active') throw apiError('INVALID_CREDENTIALS');
      return signIn(reply, user.id);
    },
  );
};

// Sign-in calls of spec §7 and the Auth result of §3.
import { z } from 'zod';
import { Organization, User } from './users';

export const PASSWORD_MIN = 8;

const email = z
  .email({ message: 'Enter a valid e-mail address' })
  .max(254)
  .transform((e) => e.trim().toLowerCase());
const password = z.string({ message: 'Password is required' }).min(1, 'Password is required').max(200);
const newPassword = z
  .string({ message: 'New password is required' })
  .min(PASSWORD_MIN, `The password must be at least ${PASSWORD_MIN} characters long`)
  .max(200);

export const LoginBody = z.object({
  email,
  password,
  cloudflareToken: z.string().max(4096).optional(),
  nonceVal: z.string().max(200).optional(),
});
export type LoginBody = z.input<typeof LoginBody>;

export const Token = z.object({ token: z.string(), expires: z.string() });
export const AuthResult = z.object({ accessToken: Token, refreshToken: Token, user: User.optional() });
export type AuthResult = z.infer<typeof AuthResult>;

/** The refresh token may come in the body or, from the browser, in its httpOnly cookie (then no body). */
export const RefreshBody = z.object({ token: z.string().max(400).optional() }).nullish();
export const ChangePasswordBody = z.object({ oldPassword: password, newPassword });
export const ForgotPasswordBody = z.object({ email });
export const ResetPasswordBody = z.object({ token: z.string().min(1).max(400), password: newPassword });
export const ActivateUserBody = z.object({ token: z.string().min(1).max(400), password: newPassword });
export const RegisterRequestBody = z.object({
  email,
  name: z.string().trim().min(1, 'Name is required').max(100),
  organizationName: z.string().trim().max(200).optional(),
  message: z.string().max(2000).optional(),
});
export const AppAccessBody = z.object({ requiredPolicies: z.array(z.string()).max(50) });
export const GoogleLoginBody = z.object({
  token: z.string().min(1).max(8192),
  nonce: z.string().min(1).max(200),
});

/** What /auth/me answers: the user, their organization and effective policies. */
export const Me = z.object({
  user: User,
  organization: Organization,
  effectivePolicies: z.array(z.string()),
  /** Still the generated first password: the app asks for a new one (absent in older stored sessions). */
  passwordChangeAdvised: z.boolean().optional(),
});
export type Me = z.infer<typeof Me>;

/** Public sign-in options, so the page shows Google and the bot check only when configured. */
export const AuthOptions = z.object({
  googleClientId: z.string().nullable(),
  turnstileSiteKey: z.string().nullable(),
});
export type AuthOptions = z.infer<typeof AuthOptions>;

// Server configuration from the environment, with the embedded defaults of DESIGN.md "Real parts".
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… switches from embedded PGlite to PostgreSQL. */
  databaseUrl?: string;
  adminEmail?: string;
  adminPassword?: string;
  /** Signing secret for access tokens; when unset one is generated and kept in the database. */
  jwtSecret?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** The origin users reach, used in e-mailed links. */
  publicUrl?: string;
  turnstileSecret?: string;
  turnstileSiteKey?: string;
  /** Where bot-check tokens and Google's keys are verified (overridable for tests and proxies). */
  turnstileVerifyUrl?: string;
  googleClientId?: string;
  googleJwksUrl?: string;
  /** Where the built app lives (vite build output). */
  distDir: string;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const port = Number(env.PORT || 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Tessera <no-reply@tessera.local>',
    publicUrl: env.PUBLIC_URL || undefined,
    turnstileSecret: env.TURNSTILE_SECRET || undefined,
    turnstileSiteKey: env.TURNSTILE_SITE_KEY || undefined,
    turnstileVerifyUrl: env.TURNSTILE_VERIFY_URL || undefined,
    googleClientId: env.GOOGLE_CLIENT_ID || undefined,
    googleJwksUrl: env.GOOGLE_JWKS_URL || undefined,
    distDir: path.resolve(env.DIST_DIR || 'dist'),
    logLevel: env.LOG_LEVEL || 'info',
  };
}

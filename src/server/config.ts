// Server configuration from the environment, with the embedded defaults of DESIGN.md "Real parts".
import net from 'node:net';
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
  /** The origin users reach (scheme, host, port), used in e-mailed and handed-out links. */
  publicUrl?: string;
  /**
   * The reverse proxies whose X-Forwarded-* headers are believed (addresses, CIDR ranges, or
   * proxy-addr's names loopback, linklocal, uniquelocal); none when unset.
   */
  trustProxy?: string[];
  turnstileSecret?: string;
  turnstileSiteKey?: string;
  /** Where bot-check tokens and Google's keys are verified (overridable for tests and proxies). */
  turnstileVerifyUrl?: string;
  googleClientId?: string;
  googleJwksUrl?: string;
  /** Where the built app lives (vite build output). */
  distDir: string;
  logLevel: string;
  /**
   * How long a worker holds a job before another may take it (JOB_LEASE_MS, default two minutes): the
   * holder renews it while alive, so this is how soon a job of a crashed worker runs again.
   */
  jobLeaseMs: number;
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
    publicUrl: env.PUBLIC_URL ? publicOrigin(env.PUBLIC_URL) : undefined,
    trustProxy: env.TRUST_PROXY ? proxyList(env.TRUST_PROXY) : undefined,
    turnstileSecret: env.TURNSTILE_SECRET || undefined,
    turnstileSiteKey: env.TURNSTILE_SITE_KEY || undefined,
    turnstileVerifyUrl: env.TURNSTILE_VERIFY_URL || undefined,
    googleClientId: env.GOOGLE_CLIENT_ID || undefined,
    googleJwksUrl: env.GOOGLE_JWKS_URL || undefined,
    distDir: path.resolve(env.DIST_DIR || 'dist'),
    logLevel: env.LOG_LEVEL || 'info',
    jobLeaseMs: jobLease(env.JOB_LEASE_MS),
  };
}

/** JOB_LEASE_MS: whole milliseconds, at least one second (renewals come every third of it). */
function jobLease(value: string | undefined): number {
  if (!value) return 120_000;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1_000)
    throw new Error(`JOB_LEASE_MS must be a whole number of milliseconds, at least 1000, got "${value}"`);
  return ms;
}

/** PUBLIC_URL as an origin: http(s), no path, so links are `${origin}/path`. */
function publicOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname.length > 1)
    throw new Error(
      `PUBLIC_URL must be an http(s) origin such as https://tessera.example.org, got "${value}"`,
    );
  return url.origin;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: comma-separated addresses or CIDR ranges of the proxies; "true" or "*" is refused. */
function proxyList(value: string): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = net.isIP(address);
    const okBits =
      bits === undefined ||
      (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32)) ||
      (family === 4 && net.isIPv4(bits));
    if (!(PROXY_NAMES.has(entry) || (family && okBits && extra === undefined)))
      throw new Error(
        `TRUST_PROXY must list the proxies' addresses (e.g. 127.0.0.1,10.0.0.0/8 or loopback), got "${entry}"`,
      );
  }
  if (!entries.length) throw new Error('TRUST_PROXY is set but names no proxy');
  return entries;
}

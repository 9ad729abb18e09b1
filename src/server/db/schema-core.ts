// Tables of organizations, users and sign-in state (spec §3 User, Organization; auth of §7).
import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, timestamp, uuid, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { changeSeq } from './columns';

const now = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();
const textArray = () =>
  text()
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

export interface OrganizationInfo {
  address?: string;
  city?: string;
  state?: string;
  zip?: string;
  phone?: string;
  email?: string;
  country?: string;
  adminUsers?: string[];
}

export interface ScanGroupSettings {
  maxDefaultActiveExpiryDays?: number;
  defaultActiveExpiryDays?: number;
}

export const organizations = pgTable(
  'organizations',
  {
    /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
    changeSeq: changeSeq(),
    id: uuid().primaryKey(),
    name: text().notNull(),
    rootId: uuid().notNull(),
    parentId: uuid(),
    /** Every ancestor, nearest last; lets "child teams" be found with one array test. */
    parentIds: textArray(),
    enabledPolicies: textArray(),
    availablePolicies: textArray(),
    info: jsonb().$type<OrganizationInfo>().notNull().default({}),
    creatorUserId: uuid(),
    adminUserId: uuid(),
    scanGroupSettings: jsonb().$type<ScanGroupSettings>().notNull().default({}),
    userLimit: integer(),
    /** The provider-level organization platform administrators belong to. */
    isPlatform: integer().notNull().default(0),
    createdAt: now(),
    updatedAt: now(),
  },
  (t) => [
    index('organizations_parent_idx').on(t.parentId),
    index('organizations_root_idx').on(t.rootId),
    // Every team below an organization (`parent_ids @> ARRAY[id]`): the caller's stamp on every request.
    index('organizations_parent_ids_gin').using('gin', t.parentIds),
  ],
);

export type OrganizationRow = typeof organizations.$inferSelect;

export const users = pgTable(
  'users',
  {
    /** Set by a trigger on every insert and update: the sync feed's monotonic cursor. */
    changeSeq: changeSeq(),
    id: uuid().primaryKey(),
    email: text().notNull(),
    name: text().notNull().default(''),
    passwordHash: text(),
    status: text().notNull().default('created'),
    organizationId: uuid().notNull(),
    enabledPolicies: textArray(),
    requestedPolicies: textArray(),
    creatorUserId: uuid(),
    createdAt: now(),
    updatedAt: now(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email), index('users_org_idx').on(t.organizationId)],
);

export type UserRow = typeof users.$inferSelect;

/** Rotating refresh tokens: each use marks the row used; a used token presented again revokes its family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid().primaryKey(),
    familyId: uuid().notNull(),
    userId: uuid().notNull(),
    secretHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /**
     * The pair this token was exchanged for, encrypted with a key drawn from this token's secret, so
     * that a second tab presenting it within the grace window gets the same pair (auth/sessions.ts).
     */
    successor: text(),
    createdAt: now(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
);

/**
 * Sign-in sessions: one per refresh-token family. Access tokens name theirs (claim `sid`), and a
 * request is refused once its session has ended (sign-out, password change or reset).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey(),
    userId: uuid().notNull(),
    createdAt: now(),
    endedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Single-use e-mailed tokens (password reset, activation); only a hash is stored. */
export const actionTokens = pgTable('action_tokens', {
  tokenHash: text().primaryKey(),
  purpose: text().notNull(),
  userId: uuid().notNull(),
  expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp({ withTimezone: true, mode: 'date' }),
  createdAt: now(),
});

/**
 * Rate-limit counters (sign-in attempts, mail-sending calls), one row per key and fixed window, kept in
 * the database so every server process counts against the same number (rate-limits/).
 */
export const rateCounters = pgTable('rate_counters', {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  count: integer().notNull(),
});

/** Nonces handed out for Google sign-in; single use. */
export const authNonces = pgTable('auth_nonces', {
  nonce: text().primaryKey(),
  expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
});

/** Server-wide settings every process shares (e.g. the generated token-signing secret). */
export const settings = pgTable('settings', {
  key: text().primaryKey(),
  value: text().notNull(),
});

/** Registration requests from the sign-up page, for administrators to act on. */
export const registrationRequests = pgTable('registration_requests', {
  id: uuid().primaryKey(),
  email: text().notNull(),
  name: text().notNull(),
  organizationName: text(),
  message: text(),
  createdAt: now(),
});

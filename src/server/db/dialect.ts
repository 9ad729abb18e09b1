// The SQL dialect with the schema's casing (db/client.ts), so a Drizzle condition compiled by hand is
// the SQL the database runs.
import { PgDialect } from 'drizzle-orm/pg-core';

export const dialect = new PgDialect({ casing: 'snake_case' });

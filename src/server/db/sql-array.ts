// A parameterised `ARRAY[...]::<type>[]` literal: drizzle binds a JS array as one value otherwise.
import { sql, type SQL } from 'drizzle-orm';

export const sqlArray = (values: readonly string[], type: 'text' | 'uuid' = 'text'): SQL =>
  sql`ARRAY[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::${sql.raw(type)}[]`;

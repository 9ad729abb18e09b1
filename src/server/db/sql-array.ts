// An `ARRAY[...]::<type>[]` literal: drizzle binds a JS array as one value otherwise. Each element is
// a parameter unless `element` writes it otherwise (the read scope writes checked ids into the text).
import { sql, type SQL } from 'drizzle-orm';

export const sqlArray = (
  values: readonly string[],
  type: 'text' | 'uuid' = 'text',
  element: (value: string) => SQL = (v) => sql`${v}`,
): SQL => sql`ARRAY[${sql.join(values.map(element), sql`, `)}]::${sql.raw(type)}[]`;

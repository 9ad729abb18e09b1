// Annotation classes (name and colour) of an organization: the list its people classify annotations
// with; teams use their own and their ancestors' classes. An annotation names its class in its content
// (`properties.classification {name, color}`, QuPath's layout), so a class is matched by name.
import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';

export const annotationClasses = pgTable(
  'annotation_classes',
  {
    id: uuid().primaryKey(),
    organizationId: uuid().notNull(),
    name: text().notNull(),
    /** '#rrggbb' */
    color: text().notNull(),
    creatorUserId: uuid(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('annotation_classes_org_idx').on(t.organizationId),
    // One class of a name per organization, whatever its case.
    uniqueIndex('annotation_classes_org_name_idx').on(t.organizationId, sql`lower(${t.name})`),
  ],
);

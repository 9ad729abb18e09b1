// The database schema: one module per area, gathered here for Drizzle and drizzle-kit.
export * from './schema-core';
export * from './schema-slides';
export * from './schema-studies';
export * from './schema-jobs';
export * from './schema-uploads';
export * from './schema-annotation-classes';

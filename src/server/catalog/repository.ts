// The catalogue's writes (organs, pipelines, predictors), each taking the db or transaction handle so
// the routes keep their transactions and activity records around them.
import { eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { organs, pipelines, predictors } from '../db/schema';
import type { OrganRow, PipelineRow, PredictorRow } from './entities';

export async function insertOrgan(db: Db, row: typeof organs.$inferInsert): Promise<OrganRow> {
  const [created] = await db.insert(organs).values(row).returning();
  return created;
}

export async function updateOrgan(
  db: Db,
  id: string,
  set: PgUpdateSetSource<typeof organs>,
): Promise<OrganRow> {
  const [updated] = await db.update(organs).set(set).where(eq(organs.id, id)).returning();
  return updated;
}

export async function deleteOrgan(db: Db, id: string): Promise<void> {
  await db.delete(organs).where(eq(organs.id, id));
}

export async function insertPipeline(db: Db, row: typeof pipelines.$inferInsert): Promise<PipelineRow> {
  const [created] = await db.insert(pipelines).values(row).returning();
  return created;
}

export async function updatePipeline(
  db: Db,
  id: string,
  set: PgUpdateSetSource<typeof pipelines>,
): Promise<PipelineRow> {
  const [updated] = await db.update(pipelines).set(set).where(eq(pipelines.id, id)).returning();
  return updated;
}

export async function deletePipeline(db: Db, id: string): Promise<void> {
  await db.delete(pipelines).where(eq(pipelines.id, id));
}

export async function insertPredictor(db: Db, row: typeof predictors.$inferInsert): Promise<PredictorRow> {
  const [created] = await db.insert(predictors).values(row).returning();
  return created;
}

export async function updatePredictor(
  db: Db,
  id: string,
  set: PgUpdateSetSource<typeof predictors>,
): Promise<PredictorRow> {
  const [updated] = await db.update(predictors).set(set).where(eq(predictors.id, id)).returning();
  return updated;
}

export async function deletePredictor(db: Db, id: string): Promise<void> {
  await db.delete(predictors).where(eq(predictors.id, id));
}

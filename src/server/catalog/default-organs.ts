// The organ catalogue a brand-new install starts with, so that the first slide label can be made
// without visiting the admin area: the organs pathology labs section most, for human and mouse,
// under the names labs use. Each carries its UBERON term (the cross-species anatomy ontology,
// https://obophenotype.github.io/uberon/) so the list can be checked against a published source;
// the organ entity has no field for it, so it stays here.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organs, settings } from '../db/schema';

export interface DefaultOrgan {
  name: string;
  /** UBERON term of the organ (the same term serves both species). */
  uberon: string;
}

const SHARED: DefaultOrgan[] = [
  { name: 'Adipose tissue', uberon: 'UBERON:0001013' },
  { name: 'Adrenal gland', uberon: 'UBERON:0002369' },
  { name: 'Bone', uberon: 'UBERON:0001474' },
  { name: 'Bone marrow', uberon: 'UBERON:0002371' },
  { name: 'Brain', uberon: 'UBERON:0000955' },
  { name: 'Colon', uberon: 'UBERON:0001155' },
  { name: 'Esophagus', uberon: 'UBERON:0001043' },
  { name: 'Eye', uberon: 'UBERON:0000970' },
  { name: 'Heart', uberon: 'UBERON:0000948' },
  { name: 'Kidney', uberon: 'UBERON:0002113' },
  { name: 'Liver', uberon: 'UBERON:0002107' },
  { name: 'Lung', uberon: 'UBERON:0002048' },
  { name: 'Lymph node', uberon: 'UBERON:0000029' },
  { name: 'Ovary', uberon: 'UBERON:0000992' },
  { name: 'Pancreas', uberon: 'UBERON:0001264' },
  { name: 'Prostate', uberon: 'UBERON:0002367' },
  { name: 'Salivary gland', uberon: 'UBERON:0001044' },
  { name: 'Skeletal muscle', uberon: 'UBERON:0001134' },
  { name: 'Skin', uberon: 'UBERON:0002097' },
  { name: 'Small intestine', uberon: 'UBERON:0002108' },
  { name: 'Spinal cord', uberon: 'UBERON:0002240' },
  { name: 'Spleen', uberon: 'UBERON:0002106' },
  { name: 'Stomach', uberon: 'UBERON:0000945' },
  { name: 'Testis', uberon: 'UBERON:0000473' },
  { name: 'Thymus', uberon: 'UBERON:0002370' },
  { name: 'Thyroid gland', uberon: 'UBERON:0002046' },
  { name: 'Urinary bladder', uberon: 'UBERON:0001255' },
  { name: 'Uterus', uberon: 'UBERON:0000995' },
];

/** Animal → organs. Human adds the surgical-pathology sites; mouse the organs of rodent studies. */
export const DEFAULT_ORGANS: Record<string, DefaultOrgan[]> = {
  Human: [
    ...SHARED,
    { name: 'Appendix', uberon: 'UBERON:0001154' },
    { name: 'Breast', uberon: 'UBERON:0000310' },
    { name: 'Cervix', uberon: 'UBERON:0000002' },
    { name: 'Gallbladder', uberon: 'UBERON:0002110' },
    { name: 'Placenta', uberon: 'UBERON:0001987' },
    { name: 'Rectum', uberon: 'UBERON:0001052' },
    { name: 'Tonsil', uberon: 'UBERON:0002372' },
  ],
  Mouse: [
    ...SHARED,
    { name: 'Caecum', uberon: 'UBERON:0001153' },
    { name: 'Embryo', uberon: 'UBERON:0000922' },
    { name: 'Epididymis', uberon: 'UBERON:0001301' },
    { name: 'Mammary gland', uberon: 'UBERON:0001911' },
    { name: 'Pituitary gland', uberon: 'UBERON:0000007' },
    { name: 'Seminal vesicle', uberon: 'UBERON:0000998' },
  ],
};

/**
 * Fills the organ catalogue with DEFAULT_ORGANS once per database, and only when it is empty: an
 * administrator who later empties the catalogue keeps it empty. The `settings` row is the lock, as
 * bootstrap's is. Returns how many organs it added.
 */
export async function seedDefaultOrgans(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(settings)
      .values({ key: 'default-organs', value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning();
    if (claimed.length === 0) return 0;
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(organs);
    if (Number(count) > 0) return 0;
    const rows = Object.entries(DEFAULT_ORGANS).flatMap(([animal, list]) =>
      list.map((o) => ({ id: crypto.randomUUID(), name: o.name, animal })),
    );
    await tx.insert(organs).values(rows);
    return rows.length;
  });
}

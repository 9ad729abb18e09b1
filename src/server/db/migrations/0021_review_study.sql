-- A review remembers the study it was requested from, so its review group is named by that study and
-- its date on the group cards and the QC report (docs/decisions.md, "Reviews and QC").
ALTER TABLE "reviews" ADD COLUMN IF NOT EXISTS "study_id" uuid;

// Where the pickers' options come from: the local mirror (so they work offline), each kind pulled at
// its §9 interval while the filter bar's pickers row is shown (the only place they are used: the
// FilterBar mounts this hook with that row, docs/decisions.md).
import { useMemo } from 'react';
import type { Organ, Predictor, ScanGroup, Study } from '../../api/entities';
import type { Organization, User } from '../../api/users';
import { readRows } from '../../local/read';
import { useLocalQuery } from '../sync/hooks';
import type { PickerOption } from './Picker';

export type PickerName = 'slideId' | 'organization' | 'creator' | 'organ' | 'assay' | 'tags';

const byLabel = (a: PickerOption, b: PickerOption) => a.label.localeCompare(b.label);

export function useFilterOptions(wanted: readonly PickerName[]): Partial<Record<PickerName, PickerOption[]>> {
  const want = (p: PickerName) => wanted.includes(p);
  const slides = useLocalQuery('scan-groups', ['picker', want('slideId')], (db) =>
    want('slideId') ? readRows<ScanGroup>(db, 'scan-groups', { orderBy: 'simpleId' }) : Promise.resolve([]),
  );
  const orgs = useLocalQuery('organizations', ['picker'], (db) =>
    readRows<Organization>(db, 'organizations'),
  );
  const users = useLocalQuery('users', ['picker'], (db) => readRows<User>(db, 'users'));
  const organs = useLocalQuery('organs', ['picker'], (db) => readRows<Organ>(db, 'organs'));
  const assays = useLocalQuery('predictors', ['picker'], (db) => readRows<Predictor>(db, 'predictors'));
  const studies = useLocalQuery('studies', ['picker-tags', want('tags')], (db) =>
    want('tags') ? readRows<Study>(db, 'studies') : Promise.resolve([]),
  );
  return useMemo(
    () => ({
      slideId: (slides.data ?? []).map((s) => ({ value: s.id, label: s.simpleId, sub: s.name ?? undefined })),
      organization: (orgs.data ?? []).map((o) => ({ value: o.id, label: o.name })).sort(byLabel),
      creator: (users.data ?? [])
        .map((u) => ({ value: u.id, label: u.name || u.email, sub: u.email }))
        .sort(byLabel),
      organ: (organs.data ?? []).map((o) => ({ value: o.id, label: o.name, sub: o.animal })).sort(byLabel),
      assay: (assays.data ?? [])
        .map((p) => ({ value: p.id, label: p.title || p.name, sub: p.version ? `v${p.version}` : undefined }))
        .sort(byLabel),
      tags: [...new Set((studies.data ?? []).flatMap((s) => s.tags))]
        .map((t) => ({ value: t, label: t }))
        .sort(byLabel),
    }),
    [slides.data, orgs.data, users.data, organs.data, assays.data, studies.data],
  );
}

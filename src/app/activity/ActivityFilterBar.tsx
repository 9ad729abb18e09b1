// The filter bar of the full activity pages: which kind of thing, which action, when (the §2.7 date
// options) and, for a feed of several people, who. Kinds and actions carry the product's words.
import { Group, Select } from '@mantine/core';
import { Misc } from '../../api/messages';
import { entityNoun, plural } from '../../api/words';
import { PICKER_MAX_HEIGHT, USER_DROPDOWN_MAX_HEIGHT } from '../admin/constants';
import { useUsers } from '../admin/admin-data';
import { DATE_RANGES, DATE_RANGE_LABELS, dateRangeStart, type DateRange } from '../filters/filter-state';

export interface ActivityFilters {
  kind: string | null;
  action: string | null;
  range: DateRange | null;
  person: string | null;
}
export const NO_FILTERS: ActivityFilters = { kind: null, action: null, range: null, person: null };

const KINDS = [
  'Study',
  'ScanGroup',
  'Image',
  'ScanOrder',
  'Review',
  'Organization',
  'User',
  'Organ',
  'Pipeline',
  'Predictor',
];
const ACTIONS: Array<[string, string]> = [
  ['create', 'Created'],
  ['update', 'Changed'],
  ['delete', 'Deleted'],
  ['share', 'Shared'],
  ['upload', 'Uploaded'],
  ['review', 'Reviewed'],
  ['archive', 'Archived'],
  ['reactivate', 'Reactivated'],
];
const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Adds the chosen filters to a /v2/activities query. */
export function filterParams(f: ActivityFilters, params: URLSearchParams): void {
  if (f.kind) params.set('reference', f.kind);
  if (f.action) params.set('actionType', f.action);
  if (f.person) params.set('creatorUserId', f.person);
  const start = dateRangeStart(f.range);
  if (start !== undefined) params.set('dateStart', new Date(start).toISOString());
}

export function ActivityFilterBar({
  value,
  onChange,
  people,
}: {
  value: ActivityFilters;
  onChange: (next: ActivityFilters) => void;
  /** The organizations whose people the Person picker offers; none: no picker. */
  people?: readonly string[];
}) {
  const set = (change: Partial<ActivityFilters>) => onChange({ ...value, ...change });
  return (
    <Group gap="sm" wrap="wrap" align="flex-end">
      <Select
        label="What"
        placeholder="Everything"
        data={KINDS.map((k) => ({ value: k, label: capitalized(plural(entityNoun(k))) }))}
        value={value.kind}
        onChange={(kind) => set({ kind })}
        clearable
        w={180}
        maxDropdownHeight={PICKER_MAX_HEIGHT}
      />
      <Select
        label="Action"
        placeholder="Any action"
        data={ACTIONS.map(([v, label]) => ({ value: v, label }))}
        value={value.action}
        onChange={(action) => set({ action })}
        clearable
        w={160}
      />
      <Select
        label="Date"
        placeholder="Any time"
        data={DATE_RANGES.map((r) => ({ value: r, label: DATE_RANGE_LABELS[r] }))}
        value={value.range}
        onChange={(v) => set({ range: v as DateRange | null })}
        clearable
        w={160}
      />
      {people && (
        <PersonPicker organizationIds={people} value={value.person} onChange={(person) => set({ person })} />
      )}
    </Group>
  );
}

function PersonPicker({
  organizationIds,
  value,
  onChange,
}: {
  organizationIds: readonly string[];
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const users = useUsers(organizationIds.length ? [...organizationIds] : undefined);
  return (
    <Select
      label="Person"
      placeholder="Anyone"
      data={(users ?? []).map((u) => ({ value: u.id, label: u.name || u.email }))}
      value={value}
      onChange={onChange}
      clearable
      searchable
      nothingFoundMessage={Misc.noOptions}
      maxDropdownHeight={USER_DROPDOWN_MAX_HEIGHT}
      w={220}
    />
  );
}

// The filter bar of §2.7: the text-search area behind a 'Filters'/'Hide' button, the search box, a
// 'Show Filters'/'Hide Filters' toggle for the pickers, the single-choice date picker, sort (Most
// Recent, Oldest) and, for slides, the archival status filter. Every change goes to the URL.
// A list's first render (the dashboard's tab: first row < 100 ms) gets the bar without what it
// does not show: the pickers' options are read only while the pickers row is shown (PickerRow), and the
// sort's closed dropdown is not mounted until the bar has been painted (Mantine's Combobox keeps it
// mounted, hidden, and floating-ui measures the page for it on mount).
import { useState } from 'react';
import { Button, Card, Group, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import {
  ARCHIVAL_LABELS,
  ARCHIVAL_STATUSES,
  DATE_RANGE_LABELS,
  DATE_RANGES,
  SORT_LABELS,
  SORTS,
  activeFilterCount,
  useFilters,
  type ArchivalStatus,
  type DateRange,
  type FilterState,
  type SortBy,
} from './filter-state';
import { usePaintedOnce } from '../lib/painted';
import { useFilterOptions, type PickerName } from './options';
import { MultiPicker } from './Picker';

// The options, built once rather than on every render of the bar (its list re-renders on local changes).
const SORT_DATA = SORTS.map((s) => ({ value: s, label: SORT_LABELS[s] }));
const DATE_DATA = DATE_RANGES.map((d) => ({ value: d, label: DATE_RANGE_LABELS[d] }));
const ARCHIVAL_OPTIONS = ARCHIVAL_STATUSES.map((s) => ({ value: s, label: ARCHIVAL_LABELS[s] }));

const PICKERS: Record<PickerName, { label: string; key: keyof FilterState; monogram?: boolean }> = {
  slideId: { label: 'Slide ID', key: 'scanGroupIds' },
  organization: { label: 'Organization', key: 'organizationIds' },
  creator: { label: 'Creator', key: 'userIds', monogram: true },
  organ: { label: 'Organ', key: 'organIds' },
  assay: { label: 'Assay', key: 'assayIds' },
  tags: { label: 'Tags', key: 'tags' },
};

export function FilterBar({
  pickers,
  archival = false,
  placeholder = 'Search',
}: {
  pickers: readonly PickerName[];
  archival?: boolean;
  placeholder?: string;
}) {
  const [state, set, clear] = useFilters();
  const [searchOpen, setSearchOpen] = useState(true);
  const [pickersOpen, setPickersOpen] = useState(activeFilterCount(state) > 0);
  const painted = usePaintedOnce();
  const [text, setText] = useState(state.textSearch);
  const writeText = useDebouncedCallback((value: string) => set({ textSearch: value.trim() }), 300);
  const count = activeFilterCount(state);
  return (
    <Card withBorder padding="sm" radius="md" data-testid="filter-bar">
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Button size="xs" variant="subtle" onClick={() => setSearchOpen((o) => !o)}>
            {searchOpen ? 'Hide' : 'Filters'}
          </Button>
          {searchOpen && (
            <TextInput
              size="xs"
              placeholder={placeholder}
              aria-label="Search"
              value={text}
              maxLength={100}
              onChange={(e) => {
                setText(e.currentTarget.value);
                writeText(e.currentTarget.value);
              }}
              style={{ flex: '1 1 200px', minWidth: 160 }}
            />
          )}
          <Button
            size="xs"
            variant={pickersOpen ? 'light' : 'default'}
            onClick={() => setPickersOpen((o) => !o)}
          >
            {pickersOpen ? 'Hide Filters' : 'Show Filters'}
            {count > 0 ? ` (${count})` : ''}
          </Button>
          <Select
            size="xs"
            w={140}
            aria-label="Sort"
            data={SORT_DATA}
            value={state.sortBy}
            allowDeselect={false}
            onChange={(v) => v && set({ sortBy: v as SortBy })}
            // Closed, the dropdown is left out until the first paint; opened early, it mounts then.
            comboboxProps={{ keepMounted: painted }}
          />
        </Group>
        {pickersOpen && (
          <PickerRow
            pickers={pickers}
            archival={archival}
            state={state}
            set={set}
            showClear={count > 0 || Boolean(state.textSearch)}
            onClear={() => {
              setText('');
              clear();
            }}
          />
        )}
      </Stack>
    </Card>
  );
}

/** The pickers row. Its options (organizations, users, organs, assays; slides and tags) are read from
 * the local store, and their kinds pulled at their §9 intervals, only while it is shown
 * (docs/decisions.md). */
function PickerRow({
  pickers,
  archival,
  state,
  set,
  showClear,
  onClear,
}: {
  pickers: readonly PickerName[];
  archival: boolean;
  state: FilterState;
  set(changes: Partial<FilterState>): void;
  /** A filter or a search is set: 'Clear filters' is offered. */
  showClear: boolean;
  onClear(): void;
}) {
  const options = useFilterOptions(pickers);
  return (
    <Group gap="xs" wrap="wrap">
      {pickers.map((p) => {
        const def = PICKERS[p];
        return (
          <MultiPicker
            key={p}
            label={def.label}
            options={options[p] ?? []}
            value={state[def.key] as string[]}
            monogram={def.monogram}
            onChange={(next) => set({ [def.key]: next })}
          />
        );
      })}
      {archival && (
        <MultiPicker
          label="Archival Status"
          options={ARCHIVAL_OPTIONS}
          value={state.scanGroupArchivalStatus}
          onChange={(next) => set({ scanGroupArchivalStatus: next as ArchivalStatus[] })}
        />
      )}
      <Select
        size="xs"
        w={140}
        placeholder="Date"
        aria-label="Date"
        clearable
        data={DATE_DATA}
        value={state.dateRange}
        onChange={(v) => set({ dateRange: (v as DateRange | null) ?? null })}
      />
      {showClear && (
        <Button size="xs" variant="subtle" color="gray" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </Group>
  );
}

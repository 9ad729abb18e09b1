// The filter bar of §2.7: the text-search area behind a 'Filters'/'Hide' button, the search box, a
// 'Show Filters'/'Hide Filters' toggle for the pickers, the single-choice date picker, sort (Most
// Recent, Oldest) and, for slides, the archival status filter. Every change goes to the URL.
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
import { useFilterOptions, type PickerName } from './options';
import { MultiPicker } from './Picker';

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
  // Read only while shown: the Slide ID picker's options are every mirrored slide.
  const options = useFilterOptions(pickersOpen ? pickers : []);
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
            data={SORTS.map((s) => ({ value: s, label: SORT_LABELS[s] }))}
            value={state.sortBy}
            allowDeselect={false}
            onChange={(v) => v && set({ sortBy: v as SortBy })}
          />
        </Group>
        {pickersOpen && (
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
                options={ARCHIVAL_STATUSES.map((s) => ({ value: s, label: ARCHIVAL_LABELS[s] }))}
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
              data={DATE_RANGES.map((d) => ({ value: d, label: DATE_RANGE_LABELS[d] }))}
              value={state.dateRange}
              onChange={(v) => set({ dateRange: (v as DateRange | null) ?? null })}
            />
            {(count > 0 || state.textSearch) && (
              <Button
                size="xs"
                variant="subtle"
                color="gray"
                onClick={() => {
                  setText('');
                  clear();
                }}
              >
                Clear filters
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

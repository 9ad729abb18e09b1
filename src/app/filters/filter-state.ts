// The filter state of spec §2.7, kept in the URL so a filtered view can be bookmarked and shared
// (the router's search serialisation: lists as JSON arrays). Read from the router's location (so
// back/forward restore it); written with replace, so typing does not flood the history. "Opening a filter context resets all filters": a tab or page opened without parameters
// starts clean, and the Clear action drops them all.
import { useCallback, useMemo } from 'react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { ScanGroupStatuses, type ScanGroupStatus } from '../../api/enums';

export const DATE_RANGES = ['today', 'lastWeek', 'lastMonth', 'lastYear'] as const;
export type DateRange = (typeof DATE_RANGES)[number];
export const DATE_RANGE_LABELS: Record<DateRange, string> = {
  today: 'Today',
  lastWeek: 'Last Week',
  lastMonth: 'Last Month',
  lastYear: 'Last Year',
};

export const SORTS = ['recent', 'oldest'] as const;
export type SortBy = (typeof SORTS)[number];
export const SORT_LABELS: Record<SortBy, string> = { recent: 'Most Recent', oldest: 'Oldest' };

/**
 * §2.7 archival status filter: a slide's statuses (§4.1) but `created`, which the list shows as active;
 * `archiving` is our 14-day window (docs/decisions.md).
 */
export type ArchivalStatus = Exclude<ScanGroupStatus, 'created'>;
export const ARCHIVAL_STATUSES: readonly ArchivalStatus[] = ScanGroupStatuses.filter(
  (s): s is ArchivalStatus => s !== 'created',
);
export const ARCHIVAL_LABELS: Record<ArchivalStatus, string> = {
  active: 'Active',
  archiving: 'Archiving within 14 days',
  archived: 'Archived',
  restoring: 'Pending Reactivation',
  archiveFailure: 'Failed to Archive',
  restoreFailure: 'Failed to Reactivate',
};
/** §9: the archiving filter window. */
export const ARCHIVING_WINDOW_DAYS = 14;

const LIST_KEYS = [
  'scanGroupIds',
  'organizationIds',
  'pipeLineIds',
  'userIds',
  'organIds',
  'assayIds',
  'animalIds',
  'tags',
  'scanGroupArchivalStatus',
] as const;
export type ListKey = (typeof LIST_KEYS)[number];

export interface FilterState {
  textSearch: string;
  scanGroupIds: string[];
  organizationIds: string[];
  pipeLineIds: string[];
  userIds: string[];
  dateRange: DateRange | null;
  organIds: string[];
  assayIds: string[];
  animalIds: string[];
  tags: string[];
  sortBy: SortBy;
  scanGroupArchivalStatus: ArchivalStatus[];
}

/** Caps what a hand-edited URL can make us hold. */
const MAX_VALUES = 200;
const MAX_TEXT = 100;

type Search = Record<string, unknown>;

const strings = (value: unknown): string[] => {
  const raw = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const out = raw
    .map((v) => (typeof v === 'number' ? String(v) : v))
    .filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200);
  return [...new Set(out)].slice(0, MAX_VALUES);
};

/** The filter state held by a parsed query (the router's `location.search`); bad values dropped. */
export function parseFilters(search: Search): FilterState {
  const text = search.textSearch;
  return {
    textSearch: (typeof text === 'string' || typeof text === 'number' ? String(text) : '').slice(0, MAX_TEXT),
    scanGroupIds: strings(search.scanGroupIds),
    organizationIds: strings(search.organizationIds),
    pipeLineIds: strings(search.pipeLineIds),
    userIds: strings(search.userIds),
    dateRange: DATE_RANGES.includes(search.dateRange as DateRange) ? (search.dateRange as DateRange) : null,
    organIds: strings(search.organIds),
    assayIds: strings(search.assayIds),
    animalIds: strings(search.animalIds),
    tags: strings(search.tags),
    sortBy: SORTS.includes(search.sortBy as SortBy) ? (search.sortBy as SortBy) : 'recent',
    scanGroupArchivalStatus: strings(search.scanGroupArchivalStatus).filter((s): s is ArchivalStatus =>
      ARCHIVAL_STATUSES.includes(s as ArchivalStatus),
    ),
  };
}

/** `search` with its filter keys replaced by `state`'s non-default values; other keys kept. */
export function writeFilters(search: Search, state: FilterState): Search {
  const out: Search = { ...search };
  for (const key of ['textSearch', 'dateRange', 'sortBy', ...LIST_KEYS]) delete out[key];
  if (state.textSearch) out.textSearch = state.textSearch;
  for (const key of LIST_KEYS) if (state[key].length) out[key] = state[key];
  if (state.dateRange) out.dateRange = state.dateRange;
  if (state.sortBy !== 'recent') out.sortBy = state.sortBy;
  return out;
}

/** How many filters are set (the search box and sort excluded). */
export function activeFilterCount(state: FilterState): number {
  return LIST_KEYS.reduce((n, k) => n + (state[k].length ? 1 : 0), state.dateRange ? 1 : 0);
}

/** The earliest createdAt a date range lets through (ms), or undefined for none. */
export function dateRangeStart(range: DateRange | null, now = new Date()): number | undefined {
  if (!range) return undefined;
  const d = new Date(now);
  if (range === 'today') d.setHours(0, 0, 0, 0);
  if (range === 'lastWeek') d.setDate(d.getDate() - 7);
  if (range === 'lastMonth') d.setMonth(d.getMonth() - 1);
  if (range === 'lastYear') d.setFullYear(d.getFullYear() - 1);
  return d.getTime();
}

/** The filter state of the current URL and setters that write it back (replace). */
export function useFilters(): [FilterState, (next: Partial<FilterState>) => void, () => void] {
  const search = useRouterState({ select: (s) => s.location.search }) as Search;
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const navigate = useNavigate();
  const state = useMemo(() => parseFilters(search), [search]);
  const set = useCallback(
    (next: Partial<FilterState>) =>
      void navigate({
        to: pathname,
        search: (prev: Search) => writeFilters(prev, { ...parseFilters(prev), ...next }),
        replace: true,
      }),
    [navigate, pathname],
  );
  const clear = useCallback(
    () =>
      void navigate({
        to: pathname,
        search: (prev: Search) => writeFilters(prev, parseFilters({})),
        replace: true,
      }),
    [navigate, pathname],
  );
  return [state, set, clear];
}

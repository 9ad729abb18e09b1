// The §2.7 filter state as the URL holds it (parse → write round trip, bad values dropped, other
// parameters kept) and the storage state a slide card and the archival filter show (§4.2, 14 days).
import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  dateRangeStart,
  parseFilters,
  writeFilters,
} from '../../src/app/filters/filter-state';
import { isArchived, slideStorage } from '../../src/app/slides/slides-local';

describe('filter state in the URL', () => {
  it('reads lists, single values and defaults; drops what it does not know', () => {
    const f = parseFilters({
      textSearch: 'liver',
      organIds: ['a', 'b', 'a'],
      userIds: 'u1',
      dateRange: 'lastWeek',
      sortBy: 'sideways',
      scanGroupArchivalStatus: ['archived', 'nonsense'],
      tags: [42],
    });
    expect(f.textSearch).toBe('liver');
    expect(f.organIds).toEqual(['a', 'b']);
    expect(f.userIds).toEqual(['u1']);
    expect(f.dateRange).toBe('lastWeek');
    expect(f.sortBy).toBe('recent');
    expect(f.scanGroupArchivalStatus).toEqual(['archived']);
    expect(f.tags).toEqual(['42']);
    expect(activeFilterCount(f)).toBe(5);
  });

  it('writes only non-default values and keeps other parameters (a modal, a study id)', () => {
    const f = { ...parseFilters({}), organIds: ['o1'], sortBy: 'oldest' as const };
    const out = writeFilters({ studyId: 's1', textSearch: 'old', organIds: ['x'] }, f);
    expect(out).toEqual({ studyId: 's1', organIds: ['o1'], sortBy: 'oldest' });
    expect(parseFilters(out)).toEqual(f);
    expect(writeFilters(out, parseFilters({}))).toEqual({ studyId: 's1' });
  });

  it('date ranges count back from now, Today from midnight', () => {
    const now = new Date(2026, 5, 15, 13, 30);
    expect(dateRangeStart('today', now)).toBe(new Date(2026, 5, 15).getTime());
    expect(dateRangeStart('lastWeek', now)).toBe(new Date(2026, 5, 8, 13, 30).getTime());
    expect(dateRangeStart('lastYear', now)).toBe(new Date(2025, 5, 15, 13, 30).getTime());
    expect(dateRangeStart(null, now)).toBeUndefined();
  });
});

describe('slide storage as shown', () => {
  const now = Date.parse('2026-06-15T12:00:00Z');
  const day = 86_400_000;
  const at = (ms: number) => new Date(ms).toISOString();
  it.each([
    ['active', null, 'active'],
    ['active', at(now + 20 * day), 'active'],
    ['active', at(now + 10 * day), 'archiving'],
    ['archiveReady', at(now), 'archiving'],
    ['archived', at(now - day), 'archived'],
    ['restoring', null, 'restoring'],
    ['restoreReady', null, 'restoring'],
    ['archiveFailure', null, 'archiveFailure'],
    ['restoreFailure', null, 'restoreFailure'],
  ] as const)('%s with archiveAt %s shows %s', (storageStatus, archiveAt, shown) => {
    expect(slideStorage({ storageStatus, archiveAt }, now)).toBe(shown);
  });

  it('a slide archived, or asked to be archived now, has no viewer link', () => {
    expect(isArchived({ storageStatus: 'archived', archiveAt: null })).toBe(true);
    expect(isArchived({ storageStatus: 'active', archiveAt: new Date().toISOString() })).toBe(true);
    expect(isArchived({ storageStatus: 'active', archiveAt: at(Date.now() + 5 * day) })).toBe(false);
    expect(isArchived({ storageStatus: 'active', archiveAt: null })).toBe(false);
  });
});

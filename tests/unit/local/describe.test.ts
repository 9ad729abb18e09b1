// How outbox entries are named in the sync status list (src/local/describe.ts): which value, of which
// field, on which study or slide, the server's message after a colon. Names come from a lookup that
// stands for the local mirror.
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../../src/local/db';
import { describeEntry, describeFailure, type NameOf } from '../../../src/local/describe';

const NAMES: Record<string, string> = {
  'studies:st1': 'Kidney 12',
  'scan-groups:sg1': 'S-0012',
  'users:u1': 'Ana Silva',
};
const nameOf: NameOf = (kind, id) => NAMES[`${kind}:${id}`];
const entry = (method: OutboxEntry['method'], path: string, body?: unknown) => ({ method, path, body });

describe('describeEntry', () => {
  it.each([
    [
      entry('PATCH', '/studies/st1', { study: {}, add: { tags: ['urgent'] } }),
      'Tag "urgent" on study Kidney 12',
    ],
    [
      entry('PATCH', '/studies/st1', { study: {}, add: { tags: ['a', 'b'] } }),
      'Tags "a", "b" on study Kidney 12',
    ],
    [
      entry('PATCH', '/studies/st1', { study: {}, remove: { tags: ['old'] } }),
      'Removing tag "old" from study Kidney 12',
    ],
    [entry('PATCH', '/studies/st1', { study: { name: 'Kidney 13' } }), 'Name "Kidney 13" on study Kidney 12'],
    [
      entry('PATCH', '/studies/st1', { study: {}, add: { assigneeUserIds: ['u1'], scanGroupIds: ['sg1'] } }),
      'Member Ana Silva, slide S-0012 on study Kidney 12',
    ],
    [
      entry('PATCH', '/scan-groups/sg1', { scanGroup: { notes: 'left kidney' } }),
      'Notes "left kidney" on slide S-0012',
    ],
    [
      entry('PATCH', '/scan-groups/sg1', { scanGroup: { archiveAt: null } }),
      'Archive date cleared on slide S-0012',
    ],
    [entry('PATCH', '/studies/gone', { study: {}, add: { tags: ['x'] } }), 'Tag "x" on a study'],
    [entry('POST', '/studies', { study: { name: 'Week 3' } }), 'Create study "Week 3"'],
    [entry('POST', '/studies', { study: { name: 'x'.repeat(101) } }), `Create study "${'x'.repeat(40)}…"`],
    [entry('DELETE', '/scan-groups/sg1'), 'Delete slide S-0012'],
    [entry('DELETE', '/images/i9'), 'Delete an image'],
    [entry('PATCH', '/scan-order-lists/l1/place'), 'Change scan order list'],
    [entry('POST', '/annotations', { annotation: {} }), 'Create annotation'],
    [entry('POST', '/annotations', { annotation: { name: 'Margin' } }), 'Create annotation "Margin"'],
  ])('%j → %s', (e, expected) => {
    expect(describeEntry(e, nameOf)).toBe(expected);
  });

  it('a refused change carries the server message after a colon; a pending one does not', () => {
    const tag = entry('PATCH', '/studies/st1', { study: {}, add: { tags: ['urgent'] } });
    const error = 'A study can have at most 30 tags';
    expect(describeFailure({ ...tag, state: 'failed', error }, nameOf)).toBe(
      'Tag "urgent" on study Kidney 12: A study can have at most 30 tags',
    );
    expect(describeFailure({ ...tag, state: 'pending', error: 'Server error' }, nameOf)).toBe(
      'Tag "urgent" on study Kidney 12',
    );
  });
});

// Table-driven merge tests (STYLE §5, after excalidraw's reconcile tests): a server copy, the outbox
// entries for one row, and the row the user sees, in a compact notation:
//   row:     'name=A tags=x,y'  ('' = the server has no such row)
//   entries: 'PATCH name=B; PATCH +tags=y; PATCH -tags=x; POST name=N; DELETE' — '!' marks a failed one
//   result:  the row as above, then 'pending=N', 'failed', 'hidden'; '—' when nothing is stored
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../../src/local/db';
import { rebuildRow, stripLocal } from '../../../src/local/effects';

const ID = 's1';

function parseRow(text: string): Record<string, unknown> | null {
  if (!text.trim()) return null;
  const row: Record<string, unknown> = { id: ID };
  for (const part of text.trim().split(/\s+/)) {
    const [k, v] = part.split('=');
    row[k] = k === 'tags' ? (v ? v.split(',') : []) : v;
  }
  return row;
}

function parseEntries(text: string): OutboxEntry[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((spec, i) => {
      const failed = spec.startsWith('!');
      const [method, ...ops] = (failed ? spec.slice(1) : spec).split(/\s+/);
      const study: Record<string, unknown> = {};
      const add: Record<string, string[]> = {};
      const remove: Record<string, string[]> = {};
      for (const op of ops) {
        const [k, v] = op.replace(/^[+-]/, '').split('=');
        if (op.startsWith('+')) add[k] = v.split(',');
        else if (op.startsWith('-')) remove[k] = v.split(',');
        else study[k] = k === 'tags' ? v.split(',') : v;
      }
      return {
        id: `e${i}`,
        seq: i + 1,
        method: method as OutboxEntry['method'],
        path: method === 'POST' ? '/studies' : `/studies/${ID}`,
        body: method === 'DELETE' ? undefined : { study, add, remove },
        baseVersion: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        attempts: 0,
        state: failed ? 'failed' : 'pending',
        error: failed ? 'refused' : undefined,
        target: `studies:${ID}`,
        preview: method === 'POST' ? { tags: [] } : undefined,
      } satisfies OutboxEntry;
    });
}

function show(row: ReturnType<typeof rebuildRow>): string {
  if (!row) return '—';
  const parts: string[] = [];
  if (!row.$hidden) {
    const visible = stripLocal(row);
    if ('name' in visible) parts.push(`name=${String(visible.name)}`);
    if ('tags' in visible) parts.push(`tags=${(visible.tags as string[]).join(',')}`);
  } else parts.push('hidden');
  if (row.$pending) parts.push(`pending=${row.$pending}`);
  if (row.$failed) parts.push('failed');
  return parts.join(' ');
}

// [server copy, outbox entries, what the user sees]
const CASES: Array<[string, string, string]> = [
  ['name=A tags=x', '', 'name=A tags=x'],
  ['', '', '—'],
  ['name=A tags=x', 'PATCH name=B', 'name=B tags=x pending=1'],
  ['name=A tags=x', 'PATCH name=B; PATCH name=C', 'name=C tags=x pending=2'],
  ['name=A tags=x', 'PATCH +tags=y; PATCH +tags=z', 'name=A tags=x,y,z pending=2'],
  ['name=A tags=x', 'PATCH +tags=x', 'name=A tags=x pending=1'],
  ['name=A tags=x,y', 'PATCH -tags=x', 'name=A tags=y pending=1'],
  ['name=A tags=x', 'PATCH +tags=y; PATCH -tags=y', 'name=A tags=x pending=2'],
  // Rebase: the server moved on (someone else renamed and tagged); our pending tag still applies.
  ['name=S tags=x,w', 'PATCH +tags=y', 'name=S tags=x,w,y pending=1'],
  ['name=S tags=x,w', 'PATCH name=B; PATCH +tags=y', 'name=B tags=x,w,y pending=2'],
  // A refused change is rolled back but leaves its mark; it does not block the next one.
  ['name=A tags=x', '!PATCH name=B', 'name=A tags=x failed'],
  ['name=A tags=x', '!PATCH name=B; PATCH +tags=y', 'name=A tags=x,y pending=1 failed'],
  ['name=A tags=x', 'PATCH name=B; !PATCH name=C', 'name=B tags=x pending=1 failed'],
  // Creates, deletes, and edits of a row the server no longer has.
  ['', 'POST name=N', 'name=N tags= pending=1'],
  ['', 'POST name=N; PATCH name=M; PATCH +tags=t', 'name=M tags=t pending=3'],
  ['', '!POST name=N', 'hidden failed'],
  ['', '!POST name=N; PATCH name=M', 'hidden pending=1 failed'],
  ['name=A', 'DELETE', 'hidden pending=1'],
  ['name=A', '!DELETE', 'name=A failed'],
  ['', 'PATCH name=B', 'hidden pending=1'],
];

describe('rebuildRow: server copy + outbox entries → what the user sees', () => {
  it.each(CASES)('%j + %j → %j', (server, entries, expected) => {
    expect(show(rebuildRow(ID, parseRow(server), parseEntries(entries)))).toBe(expected);
  });

  it('keeps the server copy as the base, without local bookkeeping', () => {
    const row = rebuildRow(ID, { id: ID, name: 'A', $pending: 3 }, parseEntries('PATCH name=B'));
    expect(row?.$base).toEqual({ id: ID, name: 'A' });
    expect(rebuildRow(ID, null, parseEntries('POST name=N'))?.$base).toBeNull();
  });

  it('applies entries in creation order whatever order they are given in', () => {
    const entries = parseEntries('PATCH name=B; PATCH name=C').reverse();
    expect(show(rebuildRow(ID, parseRow('name=A'), entries))).toBe('name=C pending=2');
  });
});

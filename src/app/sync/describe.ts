// Words for an outbox entry in the sync status list: what the change was ("Create study 'Week 3'").
import type { OutboxEntry } from '../../local/db';
import { targetOfPath } from '../../local/kinds';

const NOUNS: Record<string, string> = {
  studies: 'study',
  'scan-groups': 'slide',
  images: 'image',
  'scan-orders': 'order',
  'scan-order-lists': 'order list',
  reviews: 'review',
  organizations: 'organization',
  users: 'user',
  organs: 'organ',
  pipelines: 'pipeline',
  predictors: 'assay',
  reactions: 'reaction',
};

const VERBS: Record<string, string> = { POST: 'Create', PATCH: 'Change', PUT: 'Change', DELETE: 'Delete' };

export function describeEntry(entry: OutboxEntry): string {
  const target = targetOfPath(entry.path);
  const verb = VERBS[entry.method] ?? entry.method;
  if (!target) return `${verb} ${entry.path}`;
  const noun = NOUNS[target.spec.kind] ?? target.spec.kind;
  const body = entry.body as Record<string, unknown> | undefined;
  const inner = body?.[target.spec.entityKey] as Record<string, unknown> | undefined;
  const name = typeof inner?.name === 'string' ? inner.name : undefined;
  const shown = name && name.length > 40 ? `${name.slice(0, 40)}…` : name;
  return shown ? `${verb} ${noun} '${shown}'` : `${verb} ${noun}`;
}

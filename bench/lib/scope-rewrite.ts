// The list SQL as it could be (proposals of bench/README.md), EXPLAIN ANALYZEd on the bench data beside
// what the server sends today: a read scope every branch of which an index can serve (uuid compare
// without a text cast; inherited organizations as `@>` per organization instead of a per-row
// jsonb_array_elements), and a count that stops at a cap.
import { explain, type Captured } from './explain';

export interface MemberScope {
  userId: string;
  /** The member's organization and its teams. */
  orgIds: string[];
}

/** The indexable scope condition and its parameters. */
function scopeWhere(m: MemberScope): Captured {
  const values: unknown[] = [
    m.userId,
    m.orgIds,
    m.orgIds,
    JSON.stringify([{ assigneeType: 'User', assigneeId: m.userId }]),
  ];
  const inheritedOrgs = m.orgIds.map((id) => {
    values.push(JSON.stringify([{ assigneeType: 'Organization', assigneeId: id }]));
    return `inherited_assignees @> $${values.length}::jsonb`;
  });
  const text = [
    'creator_user_id = $1',
    'organization_id = ANY($2::uuid[])',
    'assignee_user_ids @> ARRAY[$1::text]',
    'assignee_org_ids && $3::text[]',
    'inherited_assignees @> $4::jsonb',
    ...inheritedOrgs,
  ].join(' OR ');
  return { text: `(${text})`, values };
}

const CAP = 1000;

export async function explainRewrites(url: string, member: MemberScope): Promise<void> {
  const where = scopeWhere(member);
  const tables = [
    { table: 'scan_groups', order: 'created_at DESC NULLS LAST, id DESC', limit: 10 },
    { table: 'studies', order: 'updated_at DESC NULLS LAST, id DESC', limit: 25 },
  ];
  for (const { table, order, limit } of tables) {
    const queries: Array<[string, Captured]> = [
      [
        'member count, indexable scope',
        { text: `select count(*)::int from ${table} where ${where.text}`, values: where.values },
      ],
      [
        `member count capped at ${CAP}`,
        {
          text: `select count(*)::int from (select 1 from ${table} where ${where.text} limit ${CAP + 1}) t`,
          values: where.values,
        },
      ],
      [
        'member page, indexable scope',
        {
          text: `select * from ${table} where ${where.text} order by ${order} limit ${limit}`,
          values: where.values,
        },
      ],
      ['super admin count, all rows', { text: `select count(*)::int from ${table}`, values: [] }],
      [
        `super admin count capped at ${CAP}`,
        { text: `select count(*)::int from (select 1 from ${table} limit ${CAP + 1}) t`, values: [] },
      ],
    ];
    for (const [label, q] of queries) {
      const plan = await explain(url, q);
      console.log(`  ${table} ${label}: ${plan.executionMs.toFixed(1)} ms`);
      for (const s of plan.scans.slice(0, 4)) console.log(`      ${s}`);
    }
  }
}

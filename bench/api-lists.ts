// List-call benchmark: 100,000 scan groups, 20,000 studies and 200,000 images across 50
// organizations, on PostgreSQL and on PGlite; p50/p99 latency and requests/s of GET /v2/scan-groups and
// GET /v2/studies with filters (organizationId, createdAt range, orderBy, simpleId search) at 50
// concurrent keep-alive clients, as an organization member (the read-scope SQL runs), as a super
// admin, and as a newcomer who reads three slides; baseline GET /v2/health on the same server in the
// same run. On PostgreSQL it also prints
// EXPLAIN ANALYZE of the generated list SQL; `--try-indexes` adds candidate indexes and measures again.
// Usage: npx tsx bench/api-lists.ts [--small | --scale 0.2] [--duration 8] [--concurrency 50]
//        [--db postgres|pglite] [--try-indexes] [--plans] [--only member|superAdmin|newcomer] [--tags a,b]
//        [--reuse <database>]      (npm run bench -- api-lists …)
// `--reuse` (PostgreSQL) seeds the named database once and keeps it, so later runs skip the seeding;
// `--only` and `--tags` pick personas and filters while iterating.
import crypto from 'node:crypto';
import { hashPassword } from '../src/server/auth/passwords';
import { organizations, users } from '../src/server/db/schema';
import { explain, sqlCapture } from './lib/explain';
import { explainRewrites } from './lib/scope-rewrite';
import { FULL_SCALE, generateLab, type LabData, type LabScale } from './lib/lab-data';
import { SUMMARY_HEADER, formatSummary, measure, row, type Summary } from './lib/load';
import {
  flags,
  loadLine,
  machine,
  postgresAnswers,
  signIn,
  startServer,
  type BenchServer,
  type DbKind,
} from './lib/server';
import { CANDIDATE_INDEXES, listRequests, type Persona } from './lib/list-requests';

const f = flags();
const fraction = f.has('small') ? 1 / 20 : Number(f.get('scale') ?? 1);
const durationMs = Number(f.get('duration') ?? 8) * 1000;
const concurrency = Number(f.get('concurrency') ?? 50);
const WARMUP_MS = 2000;
const TARGET_P99_MS = 50;
const MEMBER = { email: 'member@bench.test', password: 'bench member password', name: 'Bench member' };
const NEWCOMER = {
  email: 'newcomer@bench.test',
  password: 'bench newcomer password',
  name: 'Bench newcomer',
};
const POLICIES = ['manageOrganizationStudies', 'uploadOrganizationImages', 'createOrganizationLabels'];

/** A persona's user, active, in `organizationId`, with the policies an ordinary lab member has. */
async function addPersona(
  server: BenchServer,
  persona: typeof MEMBER,
  organizationId: string,
): Promise<string> {
  const id = crypto.randomUUID();
  await server.app.ctx.db.insert(users).values({
    id,
    email: persona.email,
    name: persona.name,
    passwordHash: await hashPassword(persona.password),
    status: 'active',
    organizationId,
    enabledPolicies: POLICIES,
  });
  return id;
}
const scale: LabScale = {
  organizations: FULL_SCALE.organizations,
  scanGroups: Math.round(FULL_SCALE.scanGroups * fraction),
  studies: Math.round(FULL_SCALE.studies * fraction),
  images: Math.round(FULL_SCALE.images * fraction),
};
const only = f.get('only');
const ALL_PERSONAS: Persona[] = ['member', 'superAdmin', 'newcomer'];
const personas: Persona[] = ALL_PERSONAS.includes(only as Persona) ? [only as Persona] : ALL_PERSONAS;
const tagsWanted = typeof f.get('tags') === 'string' ? String(f.get('tags')).split(',') : undefined;
const reuse = typeof f.get('reuse') === 'string' ? String(f.get('reuse')) : undefined;
const WIDTHS = [34, 12, 7, 7, 7, 7, 8, 7, 7, 7];

interface Result {
  db: DbKind;
  phase: string;
  label: string;
  summary: Summary;
}
const results: Result[] = [];

function print(db: DbKind, phase: string, label: string, summaries: Summary[]): void {
  for (const s of summaries) {
    results.push({ db, phase, label, summary: s });
    console.log(row(formatSummary(`${db} ${phase} ${label}`.trim(), s), WIDTHS));
  }
}

type SeededLab = LabData & { memberId: string };

/** A reused database keeps its lab's description in a table of its own (`--reuse`). */
async function storedLab(server: BenchServer): Promise<SeededLab | undefined> {
  await server.database.exec('CREATE TABLE IF NOT EXISTS bench_lab (data jsonb NOT NULL)');
  const [row] = await server.database.query<{ data: Record<string, unknown> }>('SELECT data FROM bench_lab');
  if (!row) return undefined;
  const d = row.data;
  return {
    ...(d as unknown as SeededLab),
    usersByOrg: new Map(d.usersByOrg as Array<[string, string[]]>),
    from: new Date(d.from as string),
    to: new Date(d.to as string),
  };
}

async function storeLab(server: BenchServer, lab: SeededLab): Promise<void> {
  const data = { ...lab, usersByOrg: [...lab.usersByOrg] };
  await server.database.query('INSERT INTO bench_lab (data) VALUES ($1)', [JSON.stringify(data)]);
}

async function seed(server: BenchServer): Promise<SeededLab> {
  const t = Date.now();
  const lab = await generateLab(server.app.ctx.db, scale, (what, n) =>
    console.log(`  inserted ${n} ${what} (${((Date.now() - t) / 1000).toFixed(0)} s)`),
  );
  // As autovacuum would leave it: statistics, and a visibility map for index-only scans.
  await server.database.exec('VACUUM ANALYZE');
  // The member persona: an ordinary user of the first lab's root organization (so its teams too).
  const memberId = await addPersona(server, MEMBER, lab.orgs[0].id);
  return { ...lab, memberId };
}

/**
 * The newcomer persona (added to a reused database too): a member of a new organization with no
 * slides, to whom three slides of the first lab's first team are assigned — a caller who reads few
 * rows, whose default lists no index order serves (lists/page-statement.ts, FEW_ROWS).
 */
async function addNewcomer(server: BenchServer, lab: LabData): Promise<void> {
  const [known] = await server.database.query('SELECT 1 FROM users WHERE email = $1', [NEWCOMER.email]);
  if (known) return;
  const orgId = crypto.randomUUID();
  const [policies] = await server.database.query<{ p: string[] }>(
    'SELECT enabled_policies AS p FROM organizations WHERE id = $1',
    [lab.orgs[0].id],
  );
  await server.app.ctx.db.insert(organizations).values({
    id: orgId,
    name: 'Bench newcomer lab',
    rootId: orgId,
    parentIds: [],
    availablePolicies: policies.p,
    enabledPolicies: policies.p,
  });
  const userId = await addPersona(server, NEWCOMER, orgId);
  await server.database.query(
    `UPDATE scan_groups SET assignee_user_ids = assignee_user_ids || ARRAY[$1::text]
     WHERE id IN (SELECT id FROM scan_groups WHERE organization_id = $2 ORDER BY created_at LIMIT 3)`,
    [userId, lab.orgs[1].id],
  );
}

async function measureLists(server: BenchServer, db: DbKind, lab: LabData, phase: string): Promise<void> {
  const tokens: Record<Persona, string> = {
    member: await signIn(server.origin, MEMBER.email, MEMBER.password),
    superAdmin: await signIn(server.origin),
    newcomer: await signIn(server.origin, NEWCOMER.email, NEWCOMER.password),
  };
  // One run per filter: in a mixed run every request queues behind the slowest filter's.
  for (const persona of personas)
    for (const endpoint of ['scan-groups', 'studies'] as const) {
      const requests = listRequests(lab, persona, endpoint);
      for (const tag of [...new Set(requests.map((r) => r.tag))]) {
        if (tagsWanted && !tagsWanted.includes(tag)) continue;
        const summaries = await measure(
          {
            origin: server.origin,
            requests: requests.filter((r) => r.tag === tag),
            pick: 'round-robin',
            headers: { authorization: `Bearer ${tokens[persona]}` },
            concurrency,
            durationMs,
            warmupMs: WARMUP_MS,
          },
          server.database,
        );
        print(db, phase, `${persona} /v2/${endpoint}`, summaries);
      }
    }
}

/** EXPLAIN ANALYZE of the count and page queries of one request per tag and persona. */
async function explainLists(server: BenchServer, lab: LabData, showPlans: boolean): Promise<void> {
  const capture = sqlCapture();
  const tokens: Record<Persona, string> = {
    member: await signIn(server.origin, MEMBER.email, MEMBER.password),
    superAdmin: await signIn(server.origin),
    newcomer: await signIn(server.origin, NEWCOMER.email, NEWCOMER.password),
  };
  try {
    for (const persona of personas)
      for (const endpoint of ['scan-groups', 'studies'] as const) {
        const seen = new Set<string>();
        for (const r of listRequests(lab, persona, endpoint)) {
          if (seen.has(r.tag)) continue;
          seen.add(r.tag);
          capture.start();
          const res = await fetch(server.origin + r.path, {
            headers: { authorization: `Bearer ${tokens[persona]}` },
          });
          await res.arrayBuffer();
          const statements = capture.stop().filter((q) => /from "(scan_groups|studies)"/i.test(q.text));
          for (const q of statements) {
            await explain(server.url!, q); // warms the caches: the load runs see them warm
            const kind = /^SELECT count\(\*\)|select count\(\*\)/.test(q.text) ? 'count' : 'page ';
            // The list statements are prepared: PostgreSQL may run them with a generic plan.
            for (const generic of [false, true]) {
              const plan = await explain(server.url!, q, generic);
              console.log(
                `  ${persona} ${endpoint} ${r.tag} ${kind} ${generic ? 'generic' : 'custom '}: ${plan.executionMs.toFixed(1)} ms (planning ${plan.planningMs.toFixed(2)} ms)`,
              );
              for (const s of plan.scans) console.log(`      ${s}`);
              if (showPlans) console.log(`${q.text}\n${plan.text}\n`);
            }
          }
        }
      }
  } finally {
    capture.restore();
  }
}

async function runOn(db: DbKind): Promise<void> {
  console.log(
    `\n== ${db}: ${scale.scanGroups} scan groups, ${scale.studies} studies, ${scale.images} images`,
  );
  const server = await startServer(db, db === 'postgres' ? reuse : undefined);
  try {
    let lab = reuse && db === 'postgres' ? await storedLab(server) : undefined;
    if (lab) console.log(`  reusing the seeded database ${reuse}`);
    else {
      lab = await seed(server);
      if (reuse && db === 'postgres') await storeLab(server, lab);
    }
    await addNewcomer(server, lab);
    console.log(loadLine());
    console.log(row(SUMMARY_HEADER, WIDTHS));
    const health =
      tagsWanted && !tagsWanted.includes('health')
        ? []
        : await measure(
            {
              origin: server.origin,
              requests: [{ tag: 'health', path: '/v2/health' }],
              pick: 'round-robin',
              headers: {},
              concurrency,
              durationMs,
              warmupMs: WARMUP_MS,
            },
            server.database,
          );
    print(db, '', 'baseline /v2/health', health);
    await measureLists(server, db, lab, '');
    if (db === 'postgres') {
      // Whether PostgreSQL settled on generic plans for the prepared list statements (no planning per
      // run) or still plans each run for its values: one pooled connection's counts.
      const prepared = await server.database.query<{ statement: string; generic: number; custom: number }>(
        'SELECT statement, generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements',
      );
      console.log('\nPrepared statements on one connection (generic / custom plans):');
      for (const p of prepared)
        console.log(
          `  ${p.generic} / ${p.custom}  ${p.statement
            .replace(/\s+/g, ' ')
            .replace(/^.* FROM \(SELECT/, '… FROM (SELECT')
            .slice(0, 400)}`,
        );
      console.log('\nEXPLAIN ANALYZE of the list SQL (one request per filter):');
      await explainLists(server, lab, f.has('plans'));
      if (f.has('try-indexes')) {
        console.log('\nCandidate indexes:');
        for (const ddl of CANDIDATE_INDEXES) {
          console.log(`  ${ddl}`);
          await server.database.exec(ddl);
        }
        await server.database.exec('ANALYZE');
        await explainLists(server, lab, f.has('plans'));
        console.log('\nThe proposed SQL (bench/lib/scope-rewrite.ts) on the same data, with these indexes:');
        await explainRewrites(server.url!, {
          userId: lab.memberId,
          orgIds: lab.orgs.filter((o) => o.rootId === lab.orgs[0].id).map((o) => o.id),
        });
        console.log(row(SUMMARY_HEADER, WIDTHS));
        await measureLists(server, db, lab, 'idx');
      }
    }
  } finally {
    await server.close();
  }
}

function sideBySide(): void {
  const dbs = [...new Set(results.map((r) => r.db))];
  const keys = [...new Set(results.map((r) => `${r.phase}|${r.label}|${r.summary.tag}`))];
  const health = new Map(
    results.filter((r) => r.label.startsWith('baseline')).map((r) => [r.db, r.summary.rps]),
  );
  console.log(
    `\n== Side by side (p50 / p99 ms, req/s, req/s ÷ health req/s, server CPU ms per request node+PostgreSQL); target p99 < ${TARGET_P99_MS} ms on PostgreSQL`,
  );
  const widths = [44, ...dbs.map(() => 52)];
  console.log(row(['request', ...dbs], widths));
  for (const key of keys) {
    const [phase, label, tag] = key.split('|');
    const cells = dbs.map((db) => {
      const r = results.find((x) => x.db === db && `${x.phase}|${x.label}|${x.summary.tag}` === key);
      if (!r) return '-';
      const s = r.summary;
      const ratio = s.rps / (health.get(db) ?? NaN);
      const miss = db === 'postgres' && !label.startsWith('baseline') && s.p99 >= TARGET_P99_MS ? ' ✗' : '';
      const cpu =
        s.cpuNodeMs !== undefined ? `  cpu ${s.cpuNodeMs.toFixed(2)}+${(s.cpuPgMs ?? 0).toFixed(2)}` : '';
      return `${s.p50.toFixed(1)} / ${s.p99.toFixed(1)}${miss}  ${s.rps.toFixed(0)}  ${ratio.toFixed(3)}${cpu}`;
    });
    console.log(row([`${phase ? `[${phase}] ` : ''}${label} ${tag}`, ...cells], widths));
  }
}

async function main(): Promise<void> {
  console.log(`api-lists bench, ${new Date().toISOString()}, ${machine()}`);
  console.log(
    `concurrency ${concurrency}, ${durationMs / 1000} s per run after ${WARMUP_MS / 1000} s warm-up`,
  );
  const wanted = f.get('db');
  const dbs: DbKind[] = wanted === 'postgres' || wanted === 'pglite' ? [wanted] : ['postgres', 'pglite'];
  for (const db of dbs) {
    if (db === 'postgres' && !(await postgresAnswers())) {
      console.log('\n== postgres: not reachable, skipped');
      continue;
    }
    await runOn(db);
  }
  sideBySide();
  console.log(loadLine());
}

await main();

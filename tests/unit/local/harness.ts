// Test harness for src/local: a real Tessera server on a port (tests/api helpers, PGlite), fresh
// IndexedDB databases (fake-indexeddb), and transports that can be cut or made to lose answers.
import type { AddressInfo } from 'node:net';
import {
  ADMIN,
  addMember,
  addOrganization,
  addUser,
  dbTargets,
  login,
  startApp,
  type TestApp,
} from '../../api/helpers';
import type { Study } from '../../../src/api/entities';
import { LocalDb } from '../../../src/local/db';
import { fetchTransport, NetworkError, type Transport } from '../../../src/local/transport';

export interface Server {
  t: TestApp;
  base: string;
  /** A signed-in transport for a user (Bearer). */
  transportFor(email?: string, password?: string): Promise<Transport>;
  /** Calls /v2 directly as a user (what another client or the server side does). */
  call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    email?: string,
  ): Promise<{ status: number; body: T }>;
  /** A user in the administrator's organization, or in a new organization of their own. */
  addUser: (email: string, policies?: string[], opts?: { ownOrganization?: boolean }) => Promise<string>;
  close(): Promise<void>;
}

export async function startServer(): Promise<Server> {
  const [pglite] = await dbTargets();
  const t = await startApp(pglite);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}/v2`;
  const passwords = new Map<string, string>([[ADMIN.email, ADMIN.password]]);
  const tokens = new Map<string, string>();
  const tokenOf = async (email: string) => {
    if (!tokens.has(email)) tokens.set(email, (await login(t.app, email, passwords.get(email))).access);
    return tokens.get(email)!;
  };
  return {
    t,
    base,
    async transportFor(email = ADMIN.email) {
      return fetchTransport(fetch, base, { authorization: `Bearer ${await tokenOf(email)}` });
    },
    async call(method, path, body, email = ADMIN.email) {
      const transport = fetchTransport(fetch, base, { authorization: `Bearer ${await tokenOf(email)}` });
      return (await transport({ method, path, body })) as { status: number; body: never };
    },
    async addUser(email, policies = [], opts = {}) {
      const password = 'correct horse battery staple';
      passwords.set(email, password);
      if (!opts.ownOrganization) return addUser(t.app, { email, password, policies });
      const organizationId = await addOrganization(t.app, { name: `${email} lab` });
      return addMember(t.app, { email, password, policies, organizationId });
    },
    close: () => t.close(),
  };
}

let dbCount = 0;
/** A fresh local database (a new name each time, so tests never share state). */
export function freshDb(): LocalDb {
  return new LocalDb(`test-${process.pid}-${++dbCount}`);
}

/** A transport the test can take offline, and make lose the answers of matching requests. */
export function controllable(inner: Transport) {
  const state = {
    offline: false,
    /** Requests matching this have their answer dropped after the server handled them. */
    loseAnswer: undefined as undefined | ((method: string, path: string) => boolean),
    log: [] as string[],
  };
  const transport: Transport = async (req) => {
    state.log.push(`${req.method} ${req.path}`);
    if (state.offline) throw new NetworkError('Failed to fetch');
    const res = await inner(req);
    if (state.loseAnswer?.(req.method, req.path)) {
      state.loseAnswer = undefined;
      throw new NetworkError('The connection was reset');
    }
    return res;
  };
  return { transport, state };
}

/** A study as the server sends it, for tests that fill the mirror directly. */
export const studyRow = (id: string, over: Partial<Study> = {}): Study => ({
  id,
  name: `study ${id}`,
  tags: [],
  scanGroupIds: [],
  organizationId: 'o1',
  status: 'created',
  creatorUserId: 'u1',
  assigneeUserIds: ['u1'],
  assigneeOrgIds: ['o1'],
  inheritedAssignees: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  viewerOptions: null,
  ...over,
});

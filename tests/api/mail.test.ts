// /v2/mail through HTTP: bug reports reach the platform's super admins with the reporter's details;
// change requests reach the nearest administrators and are kept as requestedPolicies.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Report } from '../../src/api/messages';
import { MailText } from '../../src/api/mail';
import { users } from '../../src/server/db/schema';
import {
  ADMIN,
  addLabFixture,
  bearer,
  dbTargets,
  startApp,
  type LabFixture,
  type Persona,
  type TestApp,
} from './helpers';

const targets = await dbTargets();

describe.each(targets)('mail on $name', (target) => {
  let t: TestApp;
  let f: LabFixture;
  beforeAll(async () => {
    t = await startApp(target);
    f = await addLabFixture(t.app);
  });
  afterAll(() => t.close());

  const mailDir = () => path.join(t.dataDir, 'mail');
  beforeEach(() => fs.rmSync(mailDir(), { recursive: true, force: true }));
  /** Every mail written since the test began, quoted-printable soft breaks undone. */
  const mails = () =>
    fs.existsSync(mailDir())
      ? fs
          .readdirSync(mailDir())
          .map((f) => fs.readFileSync(path.join(mailDir(), f), 'utf8').replace(/=\r?\n/g, ''))
      : [];
  const recipients = () =>
    mails()
      .map((m) => /^To: (.+)$/m.exec(m)?.[1].trim())
      .sort();
  const post = (who: Persona, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/v2/mail${url}`, headers: bearer(who.token), payload });

  describe('POST /v2/mail/send-bugs', () => {
    it('mails the platform super admins with the reporter’s name, e-mail and organization', async () => {
      const res = await post(f.member, '/send-bugs', { message: 'The viewer freezes on slide NS-0001' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect(recipients()).toEqual([ADMIN.email]);
      const [mail] = mails();
      expect(mail).toContain(`Subject: ${MailText.bugSubject('member')}`);
      expect(mail).toContain('Reply-To: member@lab.test');
      expect(mail).toContain('Reporter: member <member@lab.test>');
      expect(mail).toContain('Organization: Team A');
      expect(mail).toContain('The viewer freezes on slide NS-0001');
    });

    it('takes 1 to 2000 characters', async () => {
      const empty = await post(f.member, '/send-bugs', { message: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe(`body.message: ${Report.tooShort}`);
      expect((await post(f.member, '/send-bugs', { message: '   ' })).json().message).toBe(
        `body.message: ${Report.tooShort}`,
      );
      const long = await post(f.member, '/send-bugs', { message: 'x'.repeat(2001) });
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toBe('body.message: Message is at most 2000 characters long');
      expect(mails()).toHaveLength(0);
      expect((await post(f.member, '/send-bugs', { message: 'x'.repeat(2000) })).statusCode).toBe(200);
    });

    it('needs a signed-in caller', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/mail/send-bugs',
        payload: { message: 'hi' },
      });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('POST /v2/mail/request-change', () => {
    it('goes to the parent’s team administrators when a team has none, and keeps the request', async () => {
      const res = await post(f.member, '/request-change', {
        message: 'I need to invite my students',
        policies: ['createTeamUsers'],
      });
      expect(res.statusCode).toBe(200);
      expect(recipients()).toEqual(['orgadmin@lab.test']);
      expect(mails()[0]).toContain('Policies requested: createTeamUsers');
      const [me] = await t.app.ctx.db.select().from(users).where(eq(users.id, f.member.id));
      expect(me.requestedPolicies).toEqual(['createTeamUsers']);
    });

    it('goes to the own organization’s administrators', async () => {
      await post(f.qc, '/request-change', { message: 'Please let me archive slides' });
      expect(recipients()).toEqual(['orgadmin@lab.test']);
      expect(mails()[0]).toContain(`Subject: ${MailText.changeSubject('qc')}`);
    });

    it('goes to the platform when the requester is their own organization’s only administrator', async () => {
      await post(f.orgAdmin, '/request-change', { message: 'More users please' });
      expect(recipients()).toEqual([ADMIN.email]);
    });

    it('refuses unknown policies and empty messages, storing nothing', async () => {
      const res = await post(f.qc, '/request-change', { message: 'x', policies: ['admin'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('policies: "admin" is not a policy');
      const empty = await post(f.qc, '/request-change', { policies: ['createTeams'] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toMatch(/^body\.message: /);
      const [qc] = await t.app.ctx.db.select().from(users).where(eq(users.id, f.qc.id));
      expect(qc.requestedPolicies).toEqual([]);
      expect(mails()).toHaveLength(0);
    });
  });
});

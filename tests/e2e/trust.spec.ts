// Flows a lab user must be able to trust, each driven as that user would: a pathologist adds slides
// with a scheduled archive date to a study; a technician archives a slide after confirming it, and
// sees what they may not do before trying, a refused change in words and their placed orders; the
// administrator's invitation and organization list; and every main route loads and signs out with
// nothing in the console.
import { expect, request, test, type Locator, type Page } from '@playwright/test';
import type { ScanGroup } from '../../src/api/entities';
import { AdminText, AnnotationUiText, Denied } from '../../src/api/messages';
import { OrdersText } from '../../src/app/orders/texts';
import { SyncText } from '../../src/app/sync/texts';
import { activationToken, signIn } from './helpers';
import { createStudyOnServer, studyOnServer } from './offline-helpers';

interface Person {
  id: string;
  email: string;
  password: string;
  name: string;
}

/** The signed-in administrator's own organization. */
async function myOrganizationId(page: Page): Promise<string> {
  const me = (await (await page.request.get('/v2/auth/me')).json()) as { user: { organizationId: string } };
  return me.user.organizationId;
}

/** A team under the administrator's organization, through the API. */
async function addTeam(page: Page, name: string, fields: Record<string, unknown>): Promise<string> {
  const res = await page.request.post('/v2/organizations', {
    data: { organization: { name, parentId: await myOrganizationId(page), ...fields } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { id: string } }).result.id;
}

/** A user invited by the signed-in administrator and activated through the API. */
async function addPerson(
  page: Page,
  role: string,
  organizationId: string,
  policies: string[],
): Promise<Person> {
  const stamp = Date.now();
  const email = `${role}-${stamp}@lab.test`;
  const name = `${role[0].toUpperCase()}${role.slice(1)} ${stamp}`;
  const invited = await page.request.post('/v2/users', {
    data: { user: { email, name, organizationId, enabledPolicies: policies } },
  });
  expect(invited.status(), await invited.text()).toBe(200);
  const id = ((await invited.json()) as { result: { id: string } }).result.id;
  const password = `pw-${stamp}-${role}`;
  // A context of its own: activation signs the new user in, which must not replace our session.
  const anon = await request.newContext({ baseURL: test.info().project.use.baseURL });
  const activated = await anon.post('/v2/auth/activate-user', {
    data: { token: await activationToken(email), password },
  });
  expect(activated.status()).toBe(200);
  await anon.dispose();
  return { id, email, password, name };
}

async function createSlide(page: Page, fields: Record<string, unknown>): Promise<ScanGroup> {
  const res = await page.request.post('/v2/scan-groups', { data: { scanGroup: fields } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: ScanGroup }).result;
}

/** The pathologist's policies (the demo seed's Pathologist, src/server/seed/demo.ts). */
const PATHOLOGIST = [
  'manageOrganizationStudies',
  'manageOrganizationReview',
  'manageOrganizationAnnotations',
  'manageOrganizationSlides',
];

test('a pathologist adds slides that have a scheduled archive date to a study', async ({ page, browser }) => {
  await signIn(page);
  const stamp = Date.now();
  // A team whose slides get an archive date from its default active period, as every team's do.
  const team = await addTeam(page, `Research ${stamp}`, {
    availablePolicies: PATHOLOGIST,
    enabledPolicies: PATHOLOGIST,
    scanGroupSettings: { maxDefaultActiveExpiryDays: 365, defaultActiveExpiryDays: 60 },
  });
  const pathologist = await addPerson(page, 'pathologist', team, PATHOLOGIST);
  const slide = await createSlide(page, {
    name: `Scheduled ${stamp}`,
    organizationId: team,
    assigneeOrgIds: [team],
  });
  expect(slide.archiveAt).not.toBeNull();
  const archived = await createSlide(page, {
    name: `Scheduled ${stamp} gone`,
    organizationId: team,
    assigneeOrgIds: [team],
  });
  const archive = await page.request.patch(`/v2/scan-groups/${archived.id}`, {
    data: { scanGroup: { archiveAt: new Date().toISOString() } },
  });
  expect(archive.status()).toBe(200);

  const context = await browser.newContext();
  const p = await context.newPage();
  await signIn(p, pathologist);
  const study = await createStudyOnServer(p, `Pathology ${stamp}`);
  await p.goto(`/studies/${study.id}`);
  await expect(p.getByRole('heading', { name: study.name })).toBeVisible({ timeout: 20_000 });
  const [popup] = await Promise.all([
    p.waitForEvent('popup'),
    p.getByRole('button', { name: 'Add Slides' }).click(),
  ]);
  await popup.getByRole('textbox', { name: 'Search', exact: true }).fill(`Scheduled ${stamp}`);
  const offered = popup.getByRole('button', { name: `Slide ${slide.simpleId}` });
  await expect(offered).toBeEnabled();
  await expect(popup.getByRole('button', { name: `Slide ${archived.simpleId}` })).toBeDisabled();
  await offered.click();
  await expect(popup.getByText('1 selected')).toBeVisible();
  await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Done' }).click()]);
  await expect(p.getByText('Images Replicated').first()).toBeVisible();
  await expect.poll(async () => (await studyOnServer(p, study.id)).scanGroupIds).toEqual([slide.id]);
  await expect(p.locator(`[data-slide-id="${slide.id}"]`)).toBeVisible();
  await context.close();
});

/** The technician's policies (the demo seed's Histotechnician, src/server/seed/demo.ts). */
const TECHNICIAN = [
  'createOrganizationLabels',
  'createOrganizationOrders',
  'uploadOrganizationImages',
  'manageOrganizationSlides',
  'manageOrganizationArchivals',
  'createOrganizationAlignments',
];

test('a technician archives a slide after confirming it, and sees Archiving, then Archived', async ({
  page,
  browser,
}) => {
  await signIn(page);
  const stamp = Date.now();
  const team = await addTeam(page, `Histology ${stamp}`, {
    availablePolicies: TECHNICIAN,
    enabledPolicies: TECHNICIAN,
  });
  const technician = await addPerson(page, 'technician', team, TECHNICIAN);
  const context = await browser.newContext();
  const t = await context.newPage();
  await signIn(t, technician);
  const slide = await createSlide(t, { name: `Archive ${stamp}` });
  await t.goto('/dashboard/slides');
  await t.getByRole('textbox', { name: 'Search', exact: true }).fill(`Archive ${stamp}`);
  const card = t.locator(`[data-slide-id="${slide.id}"]`);
  await expect(card).toBeVisible({ timeout: 20_000 });
  const menu = card.getByRole('button', { name: `Slide menu ${slide.simpleId}` });

  // Cancel changes nothing.
  await menu.click();
  await t.getByRole('menuitem', { name: 'Archive' }).click();
  const dialog = t.getByRole('dialog', { name: 'Archive Slide' });
  await expect(dialog).toContainText(`Archive slide ${slide.simpleId}?`);
  await expect(dialog).toContainText('additional fees');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Archiving')).toHaveCount(0);
  const kept = await t.request.get(`/v2/scan-groups/${slide.id}`);
  expect(((await kept.json()) as { result: ScanGroup }).result.storageStatus).toBe('active');

  // Confirmed: the toast says what happened; the card shows Archiving, then Archived.
  await menu.click();
  await t.getByRole('menuitem', { name: 'Archive' }).click();
  await dialog.getByRole('button', { name: 'Archive' }).click();
  await expect(card.getByText('Archiving')).toBeVisible();
  await expect(t.getByText('Slide Archived')).toBeVisible();
  await expect(t.getByText(`Slide ${slide.simpleId} is moving to archive storage.`)).toBeVisible();
  await expect(card.getByText('Archived')).toBeVisible({ timeout: 20_000 });
  await expect(card.getByRole('link', { name: `Open slide ${slide.simpleId}` })).toHaveCount(0);
  const after = await t.request.get(`/v2/scan-groups/${slide.id}`);
  expect(((await after.json()) as { result: ScanGroup }).result.storageStatus).toBe('archived');
  await context.close();
});

test('a technician sees what they may not do before trying, a refused change in words, and placed orders in Pending', async ({
  page,
  browser,
}) => {
  await signIn(page);
  const stamp = Date.now();
  // The team offers annotations; the technician starts with them, and loses them while offline.
  const offered = [...TECHNICIAN, 'manageOrganizationAnnotations'];
  const team = await addTeam(page, `Bench ${stamp}`, {
    availablePolicies: offered,
    enabledPolicies: offered,
  });
  const technician = await addPerson(page, 'technician', team, offered);
  const pipeline = await page.request.post('/v2/pipelines', {
    data: { pipeline: { name: `H&E ${stamp}`, assigneeOrgIds: [team] } },
  });
  expect(pipeline.status(), await pipeline.text()).toBe(200);
  const fixture = Object.values(
    JSON.parse(process.env.E2E_SLIDES!) as Record<string, { scanGroupId: string }>,
  )[0];
  const shared = await page.request.patch(`/v2/scan-groups/${fixture.scanGroupId}`, {
    data: { add: { assigneeUserIds: [technician.id] } },
  });
  expect(shared.status(), await shared.text()).toBe(200);

  const context = await browser.newContext();
  const t = await context.newPage();
  await signIn(t, technician);
  const slide = await createSlide(t, { name: `Bench ${stamp}` });

  // Disabled before use, each saying why: no admin area, and no study to order for.
  await t.getByRole('banner').getByRole('button', { name: 'Settings' }).click();
  const administrator = t.getByRole('menuitem', { name: 'Account Administrator' });
  await expect(administrator).toBeDisabled();
  await administrator.hover({ force: true });
  await expect(t.getByRole('tooltip')).toContainText(AdminText.noAccess);
  await t.keyboard.press('Escape');
  await t.goto('/orders/new');
  await expect(t.getByTestId('no-study')).toContainText(OrdersText.noStudy);
  const place = t.getByRole('button', { name: OrdersText.placeOrders });
  await expect(place).toBeDisabled();
  await place.hover({ force: true });
  await expect(t.getByRole('tooltip')).toContainText(OrdersText.noStudy);

  // Once a study is shared with them, the orders are placed and shown in Pending, active.
  const study = await page.request.post('/v2/studies', {
    data: { study: { name: `Bench ${stamp}`, assigneeUserIds: [technician.id] } },
  });
  expect(study.status(), await study.text()).toBe(200);
  await t.reload();
  await chooseOption(t, t.getByRole('combobox', { name: 'Slides' }), slide.simpleId, false);
  await t.keyboard.press('Escape');
  await chooseOption(t, t.getByRole('combobox', { name: 'Staining pipeline' }), `H&E ${stamp}`);
  await chooseOption(t, t.getByRole('combobox', { name: 'Study' }), `Bench ${stamp}`);
  await place.click();
  await expect(t).toHaveURL(/\/orders\/pending/);
  const order = t.getByRole('row', { name: `Order ${slide.simpleId}` });
  await expect(order.getByTestId('order-status')).toHaveText('Active');

  // A note added offline, refused once sent (the permission went meanwhile): said in words, in place.
  await t.goto(`/sgviewer/${fixture.scanGroupId}`);
  await t.getByRole('button', { name: 'Annotations' }).click();
  await t.getByLabel('Annotation text').fill(`Margin ${stamp}`);
  await context.setOffline(true);
  await t.getByRole('button', { name: 'Add annotation' }).click();
  const note = t.getByTestId('annotation').filter({ hasText: `Margin ${stamp}` });
  await expect(note).toContainText('Pending');
  const revoked = await page.request.patch(`/v2/users/${technician.id}`, {
    data: { user: { enabledPolicies: TECHNICIAN } },
  });
  expect(revoked.status(), await revoked.text()).toBe(200);
  await context.setOffline(false);
  await expect(note).toContainText(`Not saved: ${Denied.noCreatePermission}`);
  await t.keyboard.press('Escape');
  await t.getByRole('button', { name: 'Sync status' }).click();
  await expect(t.getByTestId('sync-pending')).toHaveText(SyncText.notSaved(1));
  await expect(t.getByTestId('sync-failed')).toContainText(Denied.noCreatePermission);
  await expect(t.getByTestId('sync-failed')).not.toContainText('/annotations');

  // Signed in afresh, the tool is disabled before use, with the spec's text.
  await t.reload();
  const draw = t.getByRole('button', { name: AnnotationUiText.drawRegion });
  await expect(draw).toBeDisabled();
  // The toolbar shows once the viewer has opened the image, and may be drawn again as the page's data
  // comes in after the local store's: a hover that finds no box is tried again until the tooltip shows.
  await expect(draw).toBeVisible();
  await expect(async () => {
    await draw.hover({ force: true, timeout: 2_000 });
    await expect(t.getByRole('tooltip')).toContainText(Denied.noCreatePermission, { timeout: 2_000 });
  }).toPass();
  await context.close();
});

async function chooseOption(page: Page, combobox: Locator, name: string, exact = true) {
  await combobox.click();
  await page.getByRole('option', { name, exact }).click();
}

test('administrator defaults: an invitation ticks no policy; the organization list counts what it opens to', async ({
  page,
}) => {
  await signIn(page);
  const stamp = Date.now();
  const created = await page.request.post('/v2/organizations', {
    data: { organization: { name: `Clinic ${stamp}`, parentId: null } },
  });
  expect(created.status(), await created.text()).toBe(200);
  const org = ((await created.json()) as { result: { id: string; name: string } }).result;
  const team = await page.request.post('/v2/organizations', {
    data: { organization: { name: `Clinic ${stamp} team`, parentId: org.id } },
  });
  const teamId = ((await team.json()) as { result: { id: string } }).result.id;
  for (const [who, organizationId] of [
    ['own', org.id],
    ['team', teamId],
  ]) {
    const invited = await page.request.post('/v2/users', {
      data: { user: { email: `${who}-${stamp}@clinic.test`, organizationId } },
    });
    expect(invited.status(), await invited.text()).toBe(200);
  }

  // The organization list counts its users and its teams' users, as the Users page lists them.
  await page.goto('/administrator/pictor-admin');
  const row = page.getByRole('row', { name: `Open ${org.name}` });
  const usersCell = row.getByRole('cell').nth(2);
  await expect(usersCell).toHaveText('2', { timeout: 20_000 });

  // A row opens its organization.
  await row.click();
  await expect(page).toHaveURL(/\/administrator\/organization$/);
  await expect(page.getByRole('heading', { name: org.name, exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page.getByText(`Users of ${org.name} and its teams`)).toBeVisible();
  await expect(page.getByText('2 in all')).toBeVisible();

  // An invitation starts with no policy ticked (least privilege); the inviter ticks what is needed.
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite user' });
  const policies = dialog.getByRole('group', { name: 'Enabled policies' });
  await expect(policies.getByRole('checkbox').first()).toBeVisible();
  await expect(policies.getByRole('checkbox', { checked: true })).toHaveCount(0);
  const email = `invited-${stamp}@clinic.test`;
  await dialog.getByLabel('E-mail').fill(email);
  await policies.getByRole('checkbox', { name: 'Manage organization studies', exact: true }).check();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('3 in all')).toBeVisible({ timeout: 20_000 });
  const found = await page.request.get(`/v2/users?organizationId=${org.id}&limit=100`);
  const invited = ((await found.json()) as { result: Array<{ email: string; enabledPolicies: string[] }> })
    .result;
  expect(invited.find((u) => u.email === email)?.enabledPolicies).toEqual(['manageOrganizationStudies']);
  await page.getByRole('tab', { name: 'Organizations' }).click();
  await expect(usersCell).toHaveText('3', { timeout: 20_000 });
});

/** The main routes, each opened with a full load (with a study page and a slide viewer besides). */
const MAIN_ROUTES = [
  '/dashboard/recent-activity',
  '/dashboard/slides',
  '/dashboard/studies',
  '/dashboard/reviews-and-qc',
  '/dashboard/organization-activity',
  '/orders/slides/new',
  '/orders/slides/active',
  '/orders/new',
  '/orders/pending',
  '/orders/history',
  '/all-recent-uploads',
  '/activity',
  '/account-settings/basic-information',
  '/account-settings/permissions',
  '/administrator/organization',
  '/administrator/teams',
  '/administrator/user',
  '/administrator/pictor-admin',
  '/setup/organization-setup',
  '/setup/policy-configuration',
  '/setup/team-setup',
  '/setup/invite-users',
  '/administrator/activity',
  '/administrator/organs',
  '/administrator/pipelines',
  '/administrator/predictors',
  '/new-organization',
  '/account-settings/user-activity',
  '/dashboard/collaborator-activity',
];

test('a clean console: every main route on a full load, and signing out', async ({ page }) => {
  // A dozen full loads of the app, each up to 20 s on a loaded machine, then a sign-out.
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${page.url()}: ${msg.text().split('\n')[0]}`);
  });
  page.on('pageerror', (err) => errors.push(`${page.url()}: ${err.message.split('\n')[0]}`));
  await page.goto('/signin');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await signIn(page);
  const seeded = Object.values(
    JSON.parse(process.env.E2E_SLIDES!) as Record<string, { scanGroupId: string }>,
  );
  const study = await createStudyOnServer(page, `Console ${Date.now()}`);
  for (const route of [...MAIN_ROUTES, `/studies/${study.id}`, `/sgviewer/${seeded[0].scanGroupId}`]) {
    await page.goto(route);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Settings' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByText('Loading...')).toHaveCount(0);
  }
  // Signing out while the first sync of a load is still on its way (a slow line): it must not go on
  // asking the server after the session ended.
  await page.route('**/v2/sync/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await page.reload();
  await page.getByRole('banner').getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.goto('/dashboard/studies');
  await expect(page).toHaveURL(/\/signin/);
  for (const route of ['/fp', '/signup']) {
    await page.goto(route);
    await expect(page.getByRole('textbox', { name: 'E-mail' })).toBeVisible();
  }
  // A held sync may still be waiting in its handler: closing the context must not fail it.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  expect(errors).toEqual([]);
});

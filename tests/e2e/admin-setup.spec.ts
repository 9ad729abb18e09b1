// From a fresh install the super administrator creates an organization at
// /new-organization; its administrator activates through the e-mailed link (read from the server's
// mail folder), is sent through /setup (organization, policies, a team, an invitation); the invited
// user activates and sees only what the policies allow. Set E2E_SHOTS=dir to also save screenshots
// of every admin screen at desktop and tablet width.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { shootBothWidths, signIn } from './helpers';

const stamp = Date.now();
const orgName = `Lab ${stamp}`;
const bossEmail = `boss-${stamp}@lab.test`;
const techEmail = `tech-${stamp}@lab.test`;
const teamName = `Histology ${stamp}`;
/** The activation link of the newest e-mail to `to`, waiting for it to be written. */
async function activationLink(to: string): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR!, 'mail');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort().reverse() : [];
        for (const f of files) {
          const raw = fs.readFileSync(path.join(dir, f), 'utf8');
          if (!raw.includes(`To: ${to}`)) continue;
          const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
          link = /https?:\/\/\S+\/register\?token=\S+/.exec(text)?.[0];
          return !!link;
        }
        return false;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return link!;
}

const shoot = (page: Page, name: string) => shootBothWidths(page, name);

/** Opens an activation link in a fresh browser context and chooses a password. */
async function activate(browser: Browser, link: string, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Activate account' }).click();
  return page;
}

test('a new organization goes from creation to a working team with invited users', async ({
  page,
  browser,
}) => {
  test.setTimeout(process.env.E2E_SHOTS ? 400_000 : 180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);

  // The super administrator creates the organization and invites its administrator.
  await page.goto('/administrator/pictor-admin');
  await page.getByRole('button', { name: 'Create Organization' }).click();
  await expect(page).toHaveURL(/\/new-organization$/);
  await page.getByRole('textbox', { name: /^Name/ }).fill(orgName);
  await page.getByLabel('City').fill('Ghent');
  await page.getByLabel('User limit').fill('5');
  await page.getByLabel('Administrator e-mail').fill(bossEmail);
  await page.getByLabel('Administrator name').fill('Bo Boss');
  await shoot(page, 'new-organization');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/administrator\/pictor-admin$/, { timeout: 20_000 });
  const row = page.getByRole('row').filter({ hasText: orgName });
  await expect(row).toContainText('Bo Boss (pending)', { timeout: 20_000 });
  await shoot(page, 'pictor-admin');

  // Its administrator activates and is sent through /setup.
  const boss = await activate(browser, await activationLink(bossEmail), 'boss-password-1');
  await expect(boss).toHaveURL(/\/setup\/organization-setup/, { timeout: 20_000 });
  await expect(boss.getByLabel('City')).toHaveValue('Ghent', { timeout: 20_000 });
  await boss.getByLabel('Phone').fill('+32 9 000 00 00');
  await boss.getByRole('button', { name: 'Save changes' }).click();
  await expect(boss.getByText('Changes saved').first()).toBeVisible();
  await shoot(boss, 'setup-organization');

  // Policies: the organization turns off image uploads for everyone in it.
  await boss.getByRole('button', { name: 'Next step' }).click();
  await expect(boss).toHaveURL(/\/setup\/policy-configuration/);
  const uploads = boss.getByRole('checkbox', { name: /Upload organization images/ });
  await expect(uploads).toBeChecked();
  await uploads.uncheck();
  await boss.getByRole('button', { name: 'Save policies' }).click();
  await expect(boss.getByText('Changes saved').first()).toBeVisible();
  await expect(uploads).not.toBeChecked();
  // The administrator's own controls follow at once: no more Upload Images.
  await expect(boss.getByRole('button', { name: 'Upload Images' })).toHaveCount(0, { timeout: 20_000 });
  await shoot(boss, 'setup-policies');

  // A team.
  await boss.getByRole('button', { name: 'Next step' }).click();
  await expect(boss).toHaveURL(/\/setup\/team-setup/);
  await boss.getByRole('button', { name: 'Create New Team' }).click();
  await expect(boss).toHaveURL(/\/setup\/team-setup\/create/);
  await boss.getByRole('textbox', { name: /^Name/ }).fill(teamName);
  await boss.getByRole('button', { name: 'Create team' }).click();
  await expect(boss).toHaveURL(/\/setup\/team-setup$/, { timeout: 30_000 });
  const teamRow = boss.getByRole('row').filter({ hasText: teamName });
  await expect(teamRow).toBeVisible({ timeout: 20_000 });
  // modifyTeams covers the new team as soon as the session knows it.
  await expect(teamRow.getByRole('button', { name: `Modify ${teamName}` })).toBeEnabled({ timeout: 20_000 });
  await shoot(boss, 'setup-teams');

  // An invitation: a technician who manages studies and labels, without administration rights.
  await boss.getByRole('button', { name: 'Next step' }).click();
  await expect(boss).toHaveURL(/\/setup\/invite-users/);
  await boss.getByLabel('E-mail').fill(bossEmail);
  await expect(boss.getByText('A user with this e-mail already exists')).toBeVisible();
  await boss.getByLabel('E-mail').fill(techEmail);
  await boss.getByLabel('Name', { exact: true }).fill('Tia Tech');
  for (const label of ['Manage organization studies', 'Create organization labels'])
    await boss.getByRole('checkbox', { name: label, exact: true }).check();
  await shoot(boss, 'setup-invite');
  await boss.getByRole('button', { name: 'Send invitation' }).click();
  await expect(boss.getByText(`Invitation sent to ${techEmail}`)).toBeVisible({ timeout: 20_000 });
  await expect(boss.getByText(techEmail, { exact: true })).toBeVisible({ timeout: 20_000 });

  // The administrator's own screens.
  await boss.goto('/administrator/user');
  const techRow = boss.getByRole('row').filter({ hasText: techEmail });
  await expect(techRow).toContainText('pending', { timeout: 20_000 });
  // The first e-mail went astray: a fresh link is sent, and only that one will work (used below).
  await techRow.getByRole('button', { name: `Resend invitation to ${techEmail}` }).click();
  await expect(boss.getByText(`Invitation sent again to ${techEmail}`)).toBeVisible({ timeout: 20_000 });
  const bossRow = boss.getByRole('row').filter({ hasText: bossEmail });
  await expect(bossRow.getByRole('button', { name: `Remove ${bossEmail}` })).toBeDisabled();
  await shoot(boss, 'admin-users');
  await boss.goto('/administrator/organization');
  await expect(boss.getByLabel('Phone')).toHaveValue('+32 9 000 00 00', { timeout: 20_000 });
  await shoot(boss, 'admin-organization');
  await boss.goto('/administrator/teams');
  await boss.getByRole('button', { name: `Modify ${teamName}` }).click();
  await expect(boss.getByRole('dialog', { name: `Modify ${teamName}` })).toBeVisible();
  await shoot(boss, 'admin-team-modal');
  await boss.keyboard.press('Escape');
  await boss.goto('/administrator/activity');
  await expect(boss.getByRole('list', { name: 'Activity' })).toBeVisible({ timeout: 20_000 });
  await shoot(boss, 'admin-activity');

  // The technician activates and sees only what the policies allow.
  const tech = await activate(browser, await activationLink(techEmail), 'tech-password-1');
  await expect(tech).toHaveURL(/\/dashboard/, { timeout: 20_000 });
  await expect(tech.getByRole('button', { name: 'Upload Images' })).toHaveCount(0);
  await tech.goto('/account-settings/permissions');
  const studies = tech.locator('tr[data-policy="manageOrganizationStudies"]');
  await expect(studies).toContainText('In effect');
  await expect(tech.locator('tr[data-policy="uploadOrganizationImages"]')).toContainText(
    `Not enabled by ${orgName}`,
  );
  await expect(tech.locator('tr[data-policy="createTeams"]')).toContainText('Not enabled for you');
  await shoot(tech, 'account-permissions');
  await tech.goto('/administrator/user');
  await expect(tech.getByText('You do not have access to this area')).toBeVisible();
  await expect(tech.getByRole('button', { name: 'Invite user' })).toHaveCount(0);
  await tech.goto('/account-settings/basic-information');
  await expect(tech.getByLabel('E-mail')).toHaveValue(techEmail);
  await shoot(tech, 'account-basic');

  // Back with the administrator: the technician is now active.
  await boss.goto('/administrator/user');
  await expect(boss.getByRole('row').filter({ hasText: techEmail })).toContainText('active', {
    timeout: 40_000,
  });
});

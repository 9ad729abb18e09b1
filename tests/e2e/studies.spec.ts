// Studies through the real UI — the 'Create New Study' tile and its rules, the study page
// (inline rename: blur cancels, Enter saves; tags with their limits; Contact with 'Email copied!';
// Stain and QC donuts; delete → /dashboard/studies), the Share dialog (members and organizations,
// with their confirmations), replicate to study, remove from study and the download dialog.
import { expect, test, type Page } from '@playwright/test';
import type { Image } from '../../src/api/entities';
import { signIn } from './helpers';
import { createStudyOnServer, studyOnServer, syncNow } from './offline-helpers';
import type { SeededSlide } from './seed-slides';

const today = () => {
  const d = new Date();
  return `${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()}`;
};

test('create a study, then rename, tag, contact and delete it on its page', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page);
  await page.goto('/dashboard/studies');
  const name = `Study ${Date.now()}`;
  await page.getByRole('button', { name: 'Create New Study' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Study' });
  const create = dialog.getByRole('button', { name: 'Create', exact: true });
  await expect(create).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Study name' }).fill('x'.repeat(101));
  await expect(dialog.getByText('Study name must be at most 100 characters')).toBeVisible();
  await expect(create).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Study name' }).fill(name);
  await create.click();
  await expect(page.getByText('Study Created').first()).toBeVisible();
  const card = page.getByTestId('study-card').filter({ hasText: name });
  await expect(card).toContainText('0 slides · 0 assays');
  await expect(card).toContainText(today());
  await page.screenshot({ path: '/tmp/h7-shots/studies-desktop.png' });
  await card.getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/studies\//);
  await expect(page.getByRole('img', { name: 'Stain Status' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QC Status' })).toBeVisible();
  await expect(page.getByText('Images not found')).toBeVisible();

  // Inline name editing: blur cancels, Enter saves.
  await page.getByRole('heading', { name }).click();
  const input = page.getByRole('textbox', { name: 'Study name' });
  await input.fill(`${name} not kept`);
  await page.getByText('Stain Status').click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await page.getByRole('heading', { name }).click();
  await input.fill(`${name} renamed`);
  await input.press('Enter');
  const renamed = `${name} renamed`;
  await expect(page.getByRole('heading', { name: renamed })).toBeVisible();
  const id = page.url().split('/studies/')[1];
  await expect.poll(async () => (await studyOnServer(page, id)).name).toBe(renamed);

  // Tags: add, duplicate, too long.
  const tags = page.getByTestId('tags-card');
  const addTag = async (tag: string) => {
    await tags.getByRole('button', { name: 'Add tag' }).click();
    await tags.getByRole('textbox', { name: 'New tag' }).fill(tag);
    await tags.getByRole('textbox', { name: 'New tag' }).press('Enter');
  };
  await addTag('urgent');
  await expect(tags.getByText('urgent')).toBeVisible();
  await addTag('urgent');
  await expect(tags.getByText('This tag already exists')).toBeVisible();
  // Tags compare in any case, as on the server: 'Urgent' is refused here, not rolled back later.
  await tags.getByRole('textbox', { name: 'New tag' }).fill('Urgent');
  await tags.getByRole('textbox', { name: 'New tag' }).press('Enter');
  await expect(tags.getByText('This tag already exists')).toBeVisible();
  await tags.getByRole('textbox', { name: 'New tag' }).fill('seventeen-chars-x');
  await tags.getByRole('textbox', { name: 'New tag' }).press('Enter');
  await expect(tags.getByText('A tag must be at most 16 characters')).toBeVisible();
  await tags.getByRole('textbox', { name: 'New tag' }).press('Escape');
  await expect.poll(async () => (await studyOnServer(page, id)).tags).toEqual(['urgent']);

  // Contact: copy the creator's e-mail; the confirmation clears after 2 s.
  await page.getByRole('button', { name: 'Contact' }).click();
  const contact = page.getByRole('dialog', { name: 'Contact' });
  await contact.getByRole('button', { name: 'Copy e-mail' }).click();
  await expect(contact.getByText('Email copied!')).toBeVisible();
  await expect(contact.getByText('Email copied!')).toBeHidden({ timeout: 5_000 });
  await page.keyboard.press('Escape');
  await page.screenshot({ path: '/tmp/h7-shots/study-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.screenshot({ path: '/tmp/h7-shots/study-tablet.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Delete: confirmation, then the studies list with the §8 toast.
  await page.getByRole('button', { name: `Study menu ${renamed}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete Study' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/dashboard\/studies/);
  await expect(page.getByText(`Study ${renamed} Deleted`)).toBeVisible();
  await expect.poll(async () => (await page.request.get(`/v2/studies/${id}`)).status()).toBe(404);
});

async function post<T>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { data });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { result: T }).result;
}

test('share members and organizations, replicate, remove from study, download', async ({ page }) => {
  test.setTimeout(150_000); // the seeded slide may still be processing on a loaded machine
  await signIn(page);
  const stamp = Date.now();
  const me = (await (await page.request.get('/v2/auth/me')).json()) as { organization: { id: string } };
  const member = await post<{ id: string }>(page, '/v2/users', {
    user: { email: `member${stamp}@lab.test`, name: `Member ${stamp}` },
  });
  const team = await post<{ id: string }>(page, '/v2/organizations', {
    organization: { name: `Team ${stamp}`, parentId: me.organization.id },
  });
  const study = await createStudyOnServer(page, `Share ${stamp}`);
  await page.goto(`/studies/${study.id}`);
  await expect(page.getByRole('heading', { name: study.name })).toBeVisible({ timeout: 20_000 });

  // Share: list view, then add mode; Share only with a selection.
  await page.getByRole('button', { name: `Study menu ${study.name}` }).click();
  await page.getByRole('menuitem', { name: 'Share' }).click();
  const share = page.getByRole('dialog', { name: `Share study ${study.name}` });
  await expect(share.getByTestId('share-members')).toContainText('Administrator');
  await share.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(share.getByRole('button', { name: 'Share' })).toBeDisabled();
  await share.getByRole('combobox', { name: 'Members' }).fill(`Member ${stamp}`);
  await page.getByRole('option', { name: new RegExp(`Member ${stamp}`) }).click();
  // The members' list can be long (other tests add users): close it before the next picker.
  await share.getByRole('heading').click();
  await share.getByRole('combobox', { name: 'Organizations' }).click();
  await page.getByRole('option', { name: `Team ${stamp}` }).click();
  await share.getByRole('heading').click(); // closes the dropdown over the buttons
  await share.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByText('Study Shared').first()).toBeVisible();
  await expect
    .poll(async () => {
      const s = await studyOnServer(page, study.id);
      return s.assigneeUserIds.includes(member.id) && s.assigneeOrgIds.includes(team.id);
    })
    .toBe(true);
  await page.screenshot({ path: '/tmp/h7-shots/share-desktop.png' });

  await share.getByRole('button', { name: `Remove member Member ${stamp}` }).click();
  const confirmUser = page.getByRole('dialog', { name: 'Remove Member' });
  await expect(confirmUser).toContainText('Are you sure you want to remove this user from the study?');
  await confirmUser.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Member Removed').first()).toBeVisible();
  await share.getByRole('button', { name: `Remove organization Team ${stamp}` }).click();
  const confirmOrg = page.getByRole('dialog', { name: 'Remove Organization' });
  await expect(confirmOrg).toContainText('Are you sure you want to remove this organization from the study?');
  await confirmOrg.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Organization Removed').first()).toBeVisible();
  await expect
    .poll(async () => {
      const s = await studyOnServer(page, study.id);
      return s.assigneeUserIds.includes(member.id) || s.assigneeOrgIds.includes(team.id);
    })
    .toBe(false);
  await share.getByRole('button', { name: 'Close' }).click();

  // Replicate the seeded (processed) slide to the study; a second time is refused.
  const slide = (JSON.parse(process.env.E2E_SLIDES!) as Record<string, SeededSlide>).brightfield;
  await page.goto('/dashboard/slides');
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(slide.simpleId);
  await expect(page).toHaveURL(/textSearch=/);
  const card = page.locator(`[data-slide-id="${slide.scanGroupId}"]`);
  await expect(page.getByTestId('slide-card')).toHaveCount(1);
  await expect(card).toBeVisible();
  const replicate = async () => {
    await card.getByRole('button', { name: `Slide menu ${slide.simpleId}` }).click();
    await page.getByRole('menuitem', { name: 'Replicate to Study' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replicate to Study' });
    await dialog.getByRole('combobox', { name: 'Study' }).fill(study.name);
    await page.getByRole('option', { name: study.name }).click();
    await dialog.getByRole('button', { name: 'Replicate' }).click();
    return dialog;
  };
  await replicate();
  await expect(page.getByText('Images Replicated').first()).toBeVisible();
  await expect
    .poll(async () => (await studyOnServer(page, study.id)).scanGroupIds)
    .toContain(slide.scanGroupId);
  const again = await replicate();
  await expect(again.getByRole('alert')).toHaveText('The study already has this scan group.');
  await again.getByRole('button', { name: 'Cancel' }).click();

  // Download: the processed image is offered; the file comes down with a name.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/v2/images?scanGroupId=${slide.scanGroupId}`);
        return ((await res.json()) as { result: Image[] }).result[0]?.status;
      },
      { timeout: 90_000 },
    )
    .toBe('completed');
  await syncNow(page); // the image's new status reaches the local store now, not in 30 s
  await card.getByRole('button', { name: `Slide menu ${slide.simpleId}` }).click();
  await page.getByRole('menuitem', { name: 'Download' }).click();
  const download = page.getByRole('dialog', { name: `Download ${slide.simpleId}` });
  await expect(download.getByRole('checkbox')).toBeEnabled();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    download.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(file.suggestedFilename()).toMatch(/\.qptiff$/);

  // Remove from study (study page), after its confirmation.
  await page.goto(`/studies/${study.id}`);
  const inStudy = page.locator(`[data-slide-id="${slide.scanGroupId}"]`);
  await inStudy.getByRole('button', { name: `Slide menu ${slide.simpleId}` }).click();
  await page.getByRole('menuitem', { name: 'Remove from Study' }).click();
  await page
    .getByRole('dialog', { name: 'Remove Slide from Study' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(page.getByText('Slide Removed from Study').first()).toBeVisible();
  await expect
    .poll(async () => (await studyOnServer(page, study.id)).scanGroupIds)
    .not.toContain(slide.scanGroupId);
});

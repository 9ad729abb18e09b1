// The study menu (study card and study page): Share, Print and Delete, each enabled by its §6.2 menu
// check (Print also needs slides, §5). It owns its dialogs: the Share dialog and the Delete Study
// confirmation; a deletion goes through the outbox with the §8 toasts, then to /dashboard/studies.
// The dialogs mount the first time the menu opens, not with the menu: a studies page shows 25 menus,
// and three closed modals each (one of them reading the study's images) were most of its first render.
import { useState } from 'react';
import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { useEarlyMenu } from '../lib/early-menu';
import { useNavigate } from '@tanstack/react-router';
import { canDeleteStudy, canPrintStudy, canShareStudy, type AppAbility } from '../../access';
import type { Study } from '../../api/entities';
import { Toasts } from '../../api/messages';
import { useMutations } from '../sync/hooks';
import { ConfirmDialog } from '../slides/ConfirmDialog';
import { withOutcome } from '../slides/outcome';
import { PrintReportDialog } from '../reports/PrintReportDialog';
import { ShareDialog } from '../slides/ShareDialog';
import { SlideMenuText } from '../slides/SlideMenu';

/** Our words for the §2.10 warning (the spec gives its gist, not its text). */
export const DeleteStudyText = {
  title: 'Delete Study',
  warning: (name: string) =>
    `Delete the study ${name}? Once it is deleted, nobody in your organization will be able to access its images and stains through it.`,
  noSlides: 'The study has no slides to print',
} as const;

/**
 * `ability` comes from the page (built once per page, not once per menu). `bare`: only the menu's
 * button, drawn the same, without the menu yet (a study card's first render, StudyCard.tsx).
 */
export function StudyMenu({
  study,
  ability,
  onRename,
  bare = false,
}: {
  study: Study & { $base?: unknown };
  ability: AppAbility;
  onRename?: () => void;
  bare?: boolean;
}) {
  const mutations = useMutations();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'share' | 'delete' | 'print'>();
  // Mounted closed when the menu first opens, so opening one later still plays its transition.
  const [dialogsMounted, setDialogsMounted] = useState(false);
  const unsaved = study.$base === null;
  const gate = (allowed: boolean) =>
    unsaved ? SlideMenuText.pending : allowed ? undefined : SlideMenuText.noPermission;
  const items = [
    { key: 'share', label: 'Share', disabled: gate(canShareStudy(ability, study)) },
    ...(onRename ? [{ key: 'rename', label: 'Rename', disabled: gate(true) }] : []),
    {
      key: 'print',
      label: 'Print',
      disabled:
        study.scanGroupIds.length === 0 ? DeleteStudyText.noSlides : gate(canPrintStudy(ability, study)),
    },
    { key: 'delete', label: 'Delete', color: 'red', disabled: gate(canDeleteStudy(ability, study)) },
  ];
  const choose = (key: string) => {
    if (key === 'rename') onRename?.();
    else setDialog(key as 'share' | 'delete' | 'print');
  };
  const remove = async () => {
    setDialog(undefined);
    const outcome = await withOutcome(
      {
        pending: Toasts.deletingStudy,
        success: Toasts.studyDeleted(study.name),
        successText: Toasts.studyDeletedText,
        failure: Toasts.failedDeleteStudy,
      },
      () => mutations.remove('studies', study.id),
    );
    if (outcome !== 'failed' && window.location.pathname.startsWith('/studies/'))
      void navigate({ to: '/dashboard/studies' });
  };
  const { early, buttonProps } = useEarlyMenu(bare);
  const button = (
    <ActionIcon variant="subtle" size="sm" aria-label={`Study menu ${study.name}`} {...buttonProps}>
      ⋮
    </ActionIcon>
  );
  if (bare) return button;
  return (
    <>
      <Menu
        position="bottom-end"
        withinPortal
        shadow="md"
        width={180}
        defaultOpened={early}
        onOpen={() => setDialogsMounted(true)}
      >
        <Menu.Target>{button}</Menu.Target>
        <Menu.Dropdown>
          {items.map((item) =>
            item.disabled ? (
              <Tooltip key={item.key} label={item.disabled} openDelay={300} position="left" multiline w={220}>
                <div>
                  <Menu.Item disabled>{item.label}</Menu.Item>
                </div>
              </Tooltip>
            ) : (
              <Menu.Item key={item.key} color={item.color} onClick={() => choose(item.key)}>
                {item.label}
              </Menu.Item>
            ),
          )}
        </Menu.Dropdown>
      </Menu>
      {(dialogsMounted || early) && (
        <>
          <ShareDialog
            target={dialog === 'share' ? { kind: 'studies', item: study } : undefined}
            onClose={() => setDialog(undefined)}
          />
          <PrintReportDialog
            opened={dialog === 'print'}
            onClose={() => setDialog(undefined)}
            studyId={study.id}
            hideLabel
          />
          <ConfirmDialog
            opened={dialog === 'delete'}
            title={DeleteStudyText.title}
            message={DeleteStudyText.warning(study.name)}
            confirmLabel="Delete"
            onCancel={() => setDialog(undefined)}
            onConfirm={() => void remove()}
          />
        </>
      )}
    </>
  );
}

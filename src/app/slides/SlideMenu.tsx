// The slide menu (§2.9): share, download, replicate to study, archive or reactivate, remove from study
// (only inside a study) and print, each enabled by its §6.2 menu check and greyed out with the reason
// otherwise. Archived slides keep only Reactivate and Print (§4.2).
// A `bare` menu (a slide grid's first render, SlideGrid.tsx) is only its button (useEarlyMenu).
import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { useEarlyMenu } from '../lib/early-menu';
import {
  canArchiveSlide,
  canReplicateToStudy,
  canShareSlide,
  asSubject,
  type AppAbility,
} from '../../access';
import type { Image, ScanGroup, Study } from '../../api/entities';
import { Misc } from '../../api/messages';
import { isDownloadable, mayDownload } from './DownloadDialog';
import { isArchived } from './slides-local';

export type SlideAction = 'share' | 'download' | 'replicate' | 'archive' | 'reactivate' | 'remove' | 'print';

/** Our words where the spec gives the rule but no text (docs/decisions.md). */
export const SlideMenuText = {
  noPermission: 'You do not have permission for this action',
  archived: 'Not available while the slide is archived',
  pending: 'Available once the slide is saved',
  noStudy: 'There is no study you can add slides to',
} as const;

export const canPrintSlide = (ability: AppAbility, slide: ScanGroup) =>
  ability.can('print', asSubject('ScanGroup', slide));

interface Item {
  action: SlideAction;
  label: string;
  disabled?: string;
  color?: string;
}

export function slideMenuItems(
  ability: AppAbility,
  slide: ScanGroup & { $base?: unknown },
  images: readonly Image[],
  study?: Study,
  online = true,
): Item[] {
  const archived = isArchived(slide);
  const unsaved = slide.$base === null; // created on this device, not on the server yet
  const gate = (allowed: boolean, blockedByArchive = true) =>
    unsaved
      ? SlideMenuText.pending
      : blockedByArchive && archived
        ? SlideMenuText.archived
        : allowed
          ? undefined
          : SlideMenuText.noPermission;
  const downloadable = images.filter((i) => isDownloadable(i) && mayDownload(ability, i));
  const items: Item[] = [
    { action: 'share', label: 'Share', disabled: gate(canShareSlide(ability, slide)) },
    {
      action: 'download',
      label: 'Download',
      disabled:
        gate(images.some((i) => mayDownload(ability, i))) ??
        (downloadable.length === 0
          ? Misc.imageNotReadyToDownload
          : online
            ? undefined
            : 'Needs a connection'),
    },
    { action: 'replicate', label: 'Replicate to Study', disabled: gate(true) },
  ];
  const reactivate = slide.storageStatus !== 'active';
  items.push({
    action: reactivate ? 'reactivate' : 'archive',
    label: reactivate ? 'Reactivate' : 'Archive',
    disabled: gate(canArchiveSlide(ability, slide), false),
  });
  if (study)
    items.push({
      action: 'remove',
      label: 'Remove from Study',
      color: 'red',
      disabled: canReplicateToStudy(ability, study) ? undefined : SlideMenuText.noPermission,
    });
  items.push({ action: 'print', label: 'Print', disabled: gate(canPrintSlide(ability, slide), false) });
  return items;
}

/** `ability` comes from the grid (built once per grid, not once per card). */
export function SlideMenu({
  slide,
  images,
  study,
  ability,
  bare = false,
  onAction,
}: {
  slide: ScanGroup;
  images: readonly Image[];
  study?: Study;
  ability: AppAbility;
  /** Only the button, drawn the same, without the menu yet (see above). */
  bare?: boolean;
  onAction(action: SlideAction): void;
}) {
  const { early, buttonProps } = useEarlyMenu(bare);
  const button = (
    <ActionIcon variant="subtle" size="sm" aria-label={`Slide menu ${slide.simpleId}`} {...buttonProps}>
      ⋮
    </ActionIcon>
  );
  if (bare) return button;
  const items = slideMenuItems(ability, slide, images, study, navigator.onLine);
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={200} defaultOpened={early}>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>
        {items.map((item) =>
          item.disabled ? (
            <Tooltip
              key={item.action}
              label={item.disabled}
              openDelay={300}
              position="left"
              multiline
              w={220}
            >
              <div>
                <Menu.Item disabled>{item.label}</Menu.Item>
              </div>
            </Tooltip>
          ) : (
            <Menu.Item key={item.action} color={item.color} onClick={() => onAction(item.action)}>
              {item.label}
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

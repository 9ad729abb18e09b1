// Slide cards in a grid with the dialogs their menus open (share, download, replicate, archive,
// reactivate, remove from study) rendered once for the grid. An archive is confirmed first, since
// undoing it costs the lab reactivation fees. Hearts, archive, reactivate and removal go through the
// outbox; an archive asks the server again about 1 s after it was sent (§4.2), so the card moves
// from Archiving to the server's state without waiting for the 30 s refresh.
// The grid's first render draws its cards bare (no tooltips, no menus, no dialogs yet: SlideCard.tsx)
// and asks the server for annotation counts only after it: a second render right after the first
// paint puts them in, so the first row on screen does not wait for ten cards' floating-ui setups and
// portals (first row < 100 ms from the dashboard's tab).
import { useEffect, useMemo, useState } from 'react';
import { SimpleGrid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Image, Organ, Reaction, ScanGroup, Study } from '../../api/entities';
import type { AnnotationCounts } from '../../api/annotations';
import { StudyText, Toasts } from '../../api/messages';
import { readRows } from '../../local/read';
import type { Local } from '../../local/restore';
import { api } from '../lib/api';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';
import { useSync } from '../sync/context';
import { useLocalQuery, useMutations } from '../sync/hooks';
import { ConfirmDialog } from './ConfirmDialog';
import { DownloadDialog } from './DownloadDialog';
import { withOutcome } from './outcome';
import { PrintReportDialog } from '../reports/PrintReportDialog';
import { ReplicateDialog } from './ReplicateDialog';
import { ShareDialog } from './ShareDialog';
import { usePaintedOnce } from '../lib/painted';
import { SlideCard } from './SlideCard';
import type { SlideAction } from './SlideMenu';

/** Our texts where the spec gives none (docs/decisions.md). */
export const SlideText = {
  archiving: 'Archiving slide...',
  archived: 'Slide Archived',
  archivedText: (simpleId: string) =>
    `Slide ${simpleId} is moving to archive storage. Its images cannot be viewed or downloaded until it is reactivated.`,
  archiveTitle: 'Archive Slide',
  archiveConfirm: (simpleId: string) =>
    `Archive slide ${simpleId}? Its images move to archive storage and cannot be viewed or downloaded until the slide is reactivated. Reactivating it later incurs additional fees.`,
  reactivating: 'Reactivating slide...',
  reactivated: 'Slide Reactivation Requested',
  reactivateTitle: 'Reactivate Slide',
  reactivateWarning:
    'Reactivating an archived slide brings its images back from archive storage and incurs additional fees. Do you want to continue?',
  removeTitle: 'Remove Slide from Study',
  removeConfirm: 'Are you sure you want to remove this slide from the study?',
  removing: 'Removing slide...',
} as const;

/** §4.2: the card asks again this long after an archive or reactivation was sent. */
const REFETCH_AFTER_MS = 1_000;
/** While a shown slide is between storage states, the server is asked again this often. */
const TRANSITION_POLL_MS = 2_000;
const TRANSITIONAL = new Set(['archiveReady', 'restoreReady', 'restoring']);

export function SlideGrid({
  slides,
  images,
  reactions,
  study,
}: {
  slides: readonly Local<ScanGroup>[];
  images: Record<string, Local<Image>[]>;
  reactions: Record<string, Local<Reaction>[]>;
  study?: Local<Study>;
}) {
  const me = useMe();
  const { ability } = useAbility();
  const painted = usePaintedOnce();
  const mutations = useMutations();
  const { engine } = useSync();
  const organs = useLocalQuery('organs', ['grid'], (db) => readRows<Organ>(db, 'organs'));
  const organName = useMemo(() => new Map((organs.data ?? []).map((o) => [o.id, o.name])), [organs.data]);
  const ids = slides.map((s) => s.id).filter((id) => !slides.find((s) => s.id === id)?.$pending);
  const counts = useQuery({
    queryKey: ['annotation-counts', ids],
    queryFn: () =>
      api<AnnotationCounts>(
        'GET',
        `/annotations/counts?${ids.map((id) => `scanGroupId=${encodeURIComponent(id)}`).join('&')}`,
      ),
    // Asked once the first render is painted (until then the cached counts show, as before).
    enabled: ids.length > 0 && painted,
    staleTime: 30_000,
  });
  const [open, setOpen] = useState<{ action: SlideAction; slide: Local<ScanGroup> }>();
  const close = () => setOpen(undefined);

  const moving = slides.some((s) => TRANSITIONAL.has(s.storageStatus) && !s.$pending);
  useEffect(() => {
    if (!moving || !engine) return;
    const timer = setInterval(() => void engine.pull(['scan-groups', 'images']), TRANSITION_POLL_MS);
    return () => clearInterval(timer);
  }, [moving, engine]);

  const refetchSoon = () => setTimeout(() => void engine?.pull(['scan-groups', 'images']), REFETCH_AFTER_MS);

  const archive = async (slide: ScanGroup, reactivate: boolean) => {
    const outcome = await withOutcome(
      reactivate
        ? {
            pending: SlideText.reactivating,
            success: SlideText.reactivated,
            failure: Toasts.failedReactivate,
          }
        : {
            pending: SlideText.archiving,
            success: SlideText.archived,
            successText: SlideText.archivedText(slide.simpleId),
            failure: Toasts.failedArchive,
          },
      () =>
        mutations.update('scan-groups', slide.id, {
          set: { archiveAt: reactivate ? null : new Date().toISOString() },
        }),
    );
    if (outcome === 'sent') refetchSoon();
  };

  const act = (slide: Local<ScanGroup>, action: SlideAction) => setOpen({ action, slide });

  const removeFromStudy = async (slide: ScanGroup) => {
    close();
    if (!study) return;
    await withOutcome(
      { pending: SlideText.removing, success: Toasts.slideRemoved, failure: StudyText.removeSlideFailed },
      () => mutations.update('studies', study.id, { remove: { scanGroupIds: [slide.id] } }),
    );
  };

  const heart = (slide: ScanGroup, mine: Local<Reaction> | undefined) => {
    if (mine) void mutations.remove('reactions', mine.id);
    else
      void mutations.create(
        'reactions',
        { reactionType: 'heart', reference: 'ScanGroup', referenceId: slide.id },
        {
          creatorUserId: me.user.id,
          organizationId: me.organization.id,
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        },
      );
  };

  const current = open && slides.find((s) => s.id === open.slide.id);
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, lg: 4, xl: 5 }} spacing="md">
        {slides.map((slide) => (
          <SlideCard
            key={slide.id}
            slide={slide}
            images={images[slide.id] ?? []}
            reactions={reactions[slide.id] ?? []}
            annotations={counts.data?.counts[slide.id]}
            myUserId={me.user.id}
            organName={slide.organId ? organName.get(slide.organId) : undefined}
            study={study}
            ability={ability}
            bare={!painted}
            onAction={(a) => act(slide, a)}
            onHeart={(mine) => heart(slide, mine)}
          />
        ))}
      </SimpleGrid>
      {painted && (
        <>
          <ShareDialog
            target={
              open?.action === 'share' && current
                ? {
                    kind: 'scan-groups',
                    item: {
                      id: current.id,
                      name: current.simpleId,
                      assigneeUserIds: current.assigneeUserIds,
                      assigneeOrgIds: current.assigneeOrgIds,
                    },
                  }
                : undefined
            }
            onClose={close}
          />
          <DownloadDialog
            slide={open?.action === 'download' ? current : undefined}
            images={current ? (images[current.id] ?? []) : []}
            onClose={close}
          />
          <ReplicateDialog slide={open?.action === 'replicate' ? current : undefined} onClose={close} />
          <PrintReportDialog
            opened={open?.action === 'print' && !!current}
            onClose={close}
            scanGroupId={current?.id}
            studyId={study?.id}
          />
          <ConfirmDialog
            opened={open?.action === 'archive'}
            title={SlideText.archiveTitle}
            message={current ? SlideText.archiveConfirm(current.simpleId) : ''}
            confirmLabel="Archive"
            onCancel={close}
            onConfirm={() => {
              if (current) void archive(current, false);
              close();
            }}
          />
          <ConfirmDialog
            opened={open?.action === 'reactivate'}
            title={SlideText.reactivateTitle}
            message={SlideText.reactivateWarning}
            confirmLabel="Reactivate"
            color="tessera"
            onCancel={close}
            onConfirm={() => {
              if (current) void archive(current, true);
              close();
            }}
          />
          <ConfirmDialog
            opened={open?.action === 'remove'}
            title={SlideText.removeTitle}
            message={SlideText.removeConfirm}
            confirmLabel="Remove"
            onCancel={close}
            onConfirm={() => current && void removeFromStudy(current)}
          />
        </>
      )}
    </>
  );
}

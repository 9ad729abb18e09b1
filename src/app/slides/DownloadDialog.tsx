// The slide Download dialog (§5): the slide's images (layers) with a tick box each. Only images in
// active storage whose processing completed can be downloaded; the others are disabled with 'Image is
// not ready to download'. Download is disabled when nothing can be downloaded; with nothing ticked it
// downloads all that can be. Files come straight from their URL with progress (downloads list).
import { useState } from 'react';
import { Button, Checkbox, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { canDownloadImage, type AppAbility } from '../../access';
import type { Image, ScanGroup } from '../../api/entities';
import { Misc } from '../../api/messages';
import { useAbility } from '../session/ability';
import { downloadImage } from './download';

export const isDownloadable = (img: Image) => img.storageStatus === 'active' && img.status === 'completed';

/** The §6.2 menu check "download on an image" (the subject has no null scanGroupId). */
export const mayDownload = (ability: AppAbility, img: Image) =>
  canDownloadImage(ability, { ...img, scanGroupId: img.scanGroupId ?? undefined });

export function DownloadDialog({
  slide,
  images,
  onClose,
}: {
  slide?: ScanGroup;
  images: readonly Image[];
  onClose(): void;
}) {
  const { ability } = useAbility();
  const [ticked, setTicked] = useState<string[]>([]);
  const ready = images.filter((i) => isDownloadable(i) && mayDownload(ability, i));
  const close = () => {
    setTicked([]);
    onClose();
  };
  const start = () => {
    const chosen = ticked.length ? ready.filter((i) => ticked.includes(i.id)) : ready;
    for (const img of chosen) void downloadImage(img);
    close();
  };
  return (
    <Modal opened={!!slide} onClose={close} title={`Download ${slide?.simpleId ?? ''}`} centered>
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          Select the layers to download. With none selected, all available layers are downloaded.
        </Text>
        {images.length === 0 && <Text size="sm">{Misc.imageNotAvailable}</Text>}
        {images.map((img) => {
          const ok = ready.includes(img);
          const box = (
            <Checkbox
              label={img.name}
              disabled={!ok}
              checked={ticked.includes(img.id)}
              onChange={(e) =>
                setTicked((t) => (e.currentTarget.checked ? [...t, img.id] : t.filter((x) => x !== img.id)))
              }
            />
          );
          return ok ? (
            <div key={img.id}>{box}</div>
          ) : (
            <Tooltip key={img.id} label={Misc.imageNotReadyToDownload} openDelay={300} position="top-start">
              <div>{box}</div>
            </Tooltip>
          );
        })}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button disabled={ready.length === 0 || !navigator.onLine} onClick={start}>
            Download
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

// The head of both label repair modals (?fixUpload, ?fixCreateUpload): which file the label will be
// applied to, and what the server read from that file's label — the barcode text that named no slide,
// or that no barcode could be read — so the user can compare it with the slide in hand.
import { useEffect, useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { UploadOwnText, type UploadGroup } from '../../api/uploads';
import { api } from '../lib/api';
import { useUploadViews } from './uploads-store';

export interface RepairTargetInfo {
  /** The file's name: from this browser's upload list, else the server's group. */
  name?: string;
  /** The decoded barcode; '' when none was read; undefined while asking the server. */
  barcode?: string;
}

/** The file `fileId` names, and its label's barcode as the processing job read it (one request). */
export function useRepairTarget(fileId: string | undefined): RepairTargetInfo {
  const views = useUploadViews();
  const [group, setGroup] = useState<UploadGroup | null>();
  useEffect(() => {
    setGroup(undefined);
    if (!fileId) return;
    let live = true;
    api<{ result: UploadGroup }>('GET', `/upload-groups/${fileId}`)
      .then((r) => live && setGroup(r.result))
      .catch(() => live && setGroup(null));
    return () => {
      live = false;
    };
  }, [fileId]);
  const name = views.find((v) => v.id === fileId)?.name ?? group?.name;
  // The job records the text it decoded only when that text named no slide (label_does_not_exist).
  const read = group?.image?.code === 'label_does_not_exist' ? group.image.desc : null;
  const barcode = group === undefined ? undefined : (read ?? '');
  return { name, barcode };
}

export function RepairTarget({ info }: { info: RepairTargetInfo }) {
  return (
    <Stack gap={2} data-testid="repair-target">
      {info.name && (
        <Text size="sm">
          {UploadOwnText.forFile}: <b style={{ wordBreak: 'break-all' }}>{info.name}</b>
        </Text>
      )}
      {info.barcode !== undefined &&
        (info.barcode ? (
          <Text size="sm" data-testid="repair-barcode">
            {UploadOwnText.barcodeRead}: <b>{info.barcode}</b>. {UploadOwnText.barcodeNoMatch}
          </Text>
        ) : (
          <Text size="sm" c="dimmed" data-testid="repair-barcode">
            {UploadOwnText.barcodeNone}
          </Text>
        ))}
    </Stack>
  );
}

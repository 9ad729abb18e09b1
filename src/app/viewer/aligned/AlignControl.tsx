// "Align with…" in the viewer of a slide with two images or more: the user picks the reference and
// the target among the slide's images and asks the server to align them, then watches the request
// (Queued, Computing, Aligned with its score, Failed with the server's reason) until it can be opened
// side by side. An alignment the pair already has is offered instead of a new request. Offline, it
// says a connection is needed: the server computes alignments, so a queued request would only wait.
import { useEffect, useMemo, useState } from 'react';
import { ActionIcon, Alert, Button, Group, Modal, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { useNavigate } from '@tanstack/react-router';
import type { Image } from '../../../api/entities';
import { extractMessage } from '../../../api/messages';
import { asSubject, denialMessage } from '../../../access';
import { DeniedTooltip } from '../../lib/DeniedTooltip';
import { useAbility } from '../../session/ability';
import { useAlignment, usePairAlignments, useRequestAlignment } from './alignment-queries';
import { AlignText, alignmentStatusText, isComputing, outputOf } from './alignment-status';

const labelOf = (img: Image, i: number) => `Image ${i + 1}: ${img.name}`;

/** The button; the dialog opens with the shown image as the reference. */
export function AlignControl({ images, currentImageId }: { images: Image[]; currentImageId?: string }) {
  const { ability, me } = useAbility();
  const [opened, setOpened] = useState(false);
  const denied = denialMessage(
    ability,
    'create',
    asSubject('AlignmentRigid', { organizationId: me.organizationId, creatorUserId: me.userId }),
  );
  if (images.length < 2) return null;
  return (
    <>
      <DeniedTooltip reason={denied}>
        <Button variant="default" mih={44} disabled={!!denied} onClick={() => setOpened(true)}>
          {AlignText.open}
        </Button>
      </DeniedTooltip>
      {opened && (
        <AlignDialog images={images} currentImageId={currentImageId} onClose={() => setOpened(false)} />
      )}
    </>
  );
}

function AlignDialog({
  images,
  currentImageId,
  onClose,
}: {
  images: Image[];
  currentImageId?: string;
  onClose(): void;
}) {
  const { online } = useNetwork();
  const navigate = useNavigate();
  const options = useMemo(
    () => images.map((img, i) => ({ value: img.id, label: labelOf(img, i) })),
    [images],
  );
  const first = currentImageId ?? images[0]!.id;
  const [reference, setReference] = useState<string | null>(first);
  const [target, setTarget] = useState<string | null>(images.find((i) => i.id !== first)?.id ?? null);
  const [requestedId, setRequestedId] = useState<string>();
  const pair = usePairAlignments(reference ?? undefined, target ?? undefined);
  const request = useRequestAlignment();
  // A new pair forgets the request made for the previous one.
  useEffect(() => setRequestedId(undefined), [reference, target]);
  const existing = pair.data?.find((a) => !!outputOf(a)) ?? pair.data?.find(isComputing);
  const tracked = useAlignment(requestedId ?? existing?.id);
  const shown = tracked.data;
  const same = !!reference && reference === target;
  const open = (id: string) => void navigate({ to: '/aligned/$alignmentId', params: { alignmentId: id } });

  return (
    <Modal opened onClose={onClose} title={AlignText.title} centered>
      <Stack gap="sm">
        <Group align="end" wrap="nowrap" gap="xs">
          <Stack gap="sm" style={{ flex: 1 }}>
            <Select
              label={AlignText.reference}
              data={options}
              value={reference}
              onChange={setReference}
              allowDeselect={false}
              size="lg"
            />
            <Select
              label={AlignText.target}
              data={options}
              value={target}
              onChange={setTarget}
              allowDeselect={false}
              size="lg"
            />
          </Stack>
          <Tooltip label={AlignText.swap}>
            <ActionIcon
              variant="default"
              size={44}
              aria-label={AlignText.swap}
              onClick={() => {
                setReference(target);
                setTarget(reference);
              }}
            >
              ⇅
            </ActionIcon>
          </Tooltip>
        </Group>
        {same && <Text c="red">{AlignText.sameImage}</Text>}
        {!online && (
          <Alert color="gray" role="status">
            {AlignText.offline}
          </Alert>
        )}
        {request.isError && <Alert color="red">{extractMessage(request.error)}</Alert>}
        {shown && !same && (
          <Stack gap={4} role="status" aria-live="polite">
            {!requestedId && outputOf(shown) && <Text>{AlignText.alreadyAligned}</Text>}
            <Text fw={600} data-testid="alignment-status">
              {alignmentStatusText(shown)}
            </Text>
          </Stack>
        )}
        <Group justify="flex-end" gap="sm">
          {shown && outputOf(shown) && !same ? (
            <Button mih={44} onClick={() => open(shown.id)}>
              {AlignText.openAligned}
            </Button>
          ) : (
            <Button
              mih={44}
              disabled={!online || same || !reference || !target || isComputing(shown) || pair.isPending}
              loading={request.isPending}
              onClick={() => {
                if (!reference || !target) return;
                request.mutate(
                  { referenceImageId: reference, targetImageId: target },
                  { onSuccess: (created) => setRequestedId(created.id) },
                );
              }}
            >
              {AlignText.request}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

// Under the aligned views: each image's annotations, each with a button copying it onto the other
// image through the alignment (target → reference by the matrix, reference → target by its inverse).
// A copy is a new annotation of the other image, made the way the viewer makes every annotation
// (useAddAnnotation: through the outbox, so offline too, and Pending until sent), naming the image it
// came from as its sourceImageId.
import { useMemo } from 'react';
import { Button, Card, Group, ScrollArea, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Image } from '../../../api/entities';
import { DeniedTooltip } from '../../lib/DeniedTooltip';
import { outlinesOf } from '../annotations/regions';
import {
  shownContent,
  useAddAnnotation,
  useAnnotationDenials,
  useImageAnnotations,
} from '../annotations/useImageAnnotations';
import { invertAffine, type Affine } from './aligned-transform';
import { mapAnnotationContent } from './annotation-copy';

export const CopyText = {
  title: 'Annotations',
  toTarget: 'Copy to target',
  toReference: 'Copy to reference',
  none: 'No annotations.',
  region: 'Region',
  note: 'Note',
  copied: (name: string, side: string) => `“${name}” copied to the ${side} image`,
  more: (n: number) => `and ${n} more`,
} as const;

/** The most rows listed per image: beyond that, a long list would slow the page for little use. */
const LISTED = 100;

export function CopyAnnotations({
  reference,
  target,
  matrix,
}: {
  reference: Image;
  target: Image;
  /** A target level-0 pixel → the reference's. */
  matrix: Affine;
}) {
  const inverse = useMemo(() => invertAffine(matrix), [matrix]);
  return (
    <Card withBorder p="xs">
      <Text fw={600} size="sm" mb={4}>
        {CopyText.title}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <CopyList from={reference} to={target} toSide="target" matrix={inverse} label={CopyText.toTarget} />
        <CopyList
          from={target}
          to={reference}
          toSide="reference"
          matrix={matrix}
          label={CopyText.toReference}
        />
      </SimpleGrid>
    </Card>
  );
}

function CopyList({
  from,
  to,
  toSide,
  matrix,
  label,
}: {
  from: Image;
  to: Image;
  toSide: string;
  /** A pixel of `from` → the pixel of `to` on the same tissue. */
  matrix: Affine;
  label: string;
}) {
  const { rows, edits } = useImageAnnotations(from.id);
  const add = useAddAnnotation(to.id);
  const denied = useAnnotationDenials().create;
  const listed = rows.slice(0, LISTED);
  return (
    <Stack gap={4} aria-label={`${from.name}: ${CopyText.title}`} role="group">
      <Text size="sm" c="dimmed" truncate>
        {from.name}
      </Text>
      <ScrollArea.Autosize mah={180}>
        <Stack gap={4}>
          {listed.length === 0 && <Text size="sm">{CopyText.none}</Text>}
          {listed.map((row) => {
            const content = shownContent(row, edits.get(row.id));
            const name = row.name || (outlinesOf(content).length ? CopyText.region : CopyText.note);
            return (
              <Group key={row.id} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" truncate>
                  {name}
                </Text>
                <DeniedTooltip reason={denied}>
                  <Button
                    variant="default"
                    size="sm"
                    mih={44}
                    disabled={!!denied}
                    aria-label={`${label}: ${name}`}
                    onClick={() =>
                      void add(row.name, mapAnnotationContent(content, matrix), from.id).then(() =>
                        notifications.show({ message: CopyText.copied(name, toSide) }),
                      )
                    }
                  >
                    {label}
                  </Button>
                </DeniedTooltip>
              </Group>
            );
          })}
          {rows.length > LISTED && (
            <Text size="xs" c="dimmed">
              {CopyText.more(rows.length - LISTED)}
            </Text>
          )}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}

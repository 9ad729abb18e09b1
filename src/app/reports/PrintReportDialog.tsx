// Print a Report (§2.10, §5, §9): the reports a slide or a study can print, each opening in a new
// browser tab where it waits for its images, prints and closes. From a slide: its Slide Report and
// Label Report (the label is hidden when printing from a study card, `hideLabel`); with a study: the
// Study Report (with its number of assays) and the QC report of all the study's images. A report is
// disabled without slides or without the print permission. Reads the local store, so the dialog opens
// offline too (the report tabs then show what this device holds).
import { useRef } from 'react';
import { Button, Group, Modal, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { asSubject } from '../../access';
import { canPrintStudy } from '../../access/menu';
import type { ScanGroup, Study } from '../../api/entities';
import { ReportText, StudyText } from '../../api/messages';
import type { LocalDb } from '../../local/db';
import { readRow } from '../../local/read';
import { useAbility } from '../session/ability';
import { countAssays, studyImages } from '../studies/studies-local';
import { useObserved } from '../sync/hooks';
import { reportPaths } from './paths';

export interface PrintReportDialogProps {
  opened: boolean;
  onClose(): void;
  /** The slide printed from a slide card (its Slide and Label reports). */
  scanGroupId?: string;
  /** The study the slide or study card belongs to (its Study and QC reports). */
  studyId?: string;
  /** Printing from a study card: the label report is not offered (§2.10). */
  hideLabel?: boolean;
}

interface Loaded {
  slide?: ScanGroup;
  study?: Study;
  /** Ids of the images on the study's slides, for the QC report. */
  studyImageIds: string[];
  numberOfAssays: number;
}

async function load(db: LocalDb, scanGroupId?: string, studyId?: string): Promise<Loaded> {
  const slide = scanGroupId ? await readRow<ScanGroup>(db, 'scan-groups', scanGroupId) : undefined;
  const study = studyId ? await readRow<Study>(db, 'studies', studyId) : undefined;
  if (!study) return { slide, study, studyImageIds: [], numberOfAssays: 0 };
  // Read once, for both the QC report's ids and the study report's number of assays.
  const images = await studyImages(db, [study]);
  const assays = countAssays([study], images);
  return { slide, study, studyImageIds: images.map((i) => i.id), numberOfAssays: assays[study.id] ?? 0 };
}

interface Choice {
  key: string;
  title: string;
  description: string;
  href: string;
  /** Why it cannot be printed, if it cannot. */
  disabled?: string;
}

export function PrintReportDialog({
  opened,
  onClose,
  scanGroupId,
  studyId,
  hideLabel,
}: PrintReportDialogProps) {
  const { ability } = useAbility();
  // Read only while open: slide grids and study menus keep this dialog mounted, closed. What was
  // read last stays shown while it fades out and until the next open's read answers.
  const read = useObserved(
    (db) => (opened ? load(db, scanGroupId, studyId) : Promise.resolve(undefined)),
    [scanGroupId, studyId, opened],
  );
  const last = useRef<Loaded>(undefined);
  if (read) last.current = read;
  const data = read ?? last.current;
  const choices: Choice[] = [];
  if (scanGroupId) {
    const slide = data?.slide;
    const allowed = !slide || ability.can('print', asSubject('ScanGroup', slide));
    const why = !allowed ? ReportText.noPrintPermission : undefined;
    choices.push({
      key: 'slide',
      title: ReportText.slideReport,
      description: ReportText.slideReportText,
      href: reportPaths.slide(scanGroupId),
      disabled: why,
    });
    if (!hideLabel)
      choices.push({
        key: 'label',
        title: ReportText.labelReport,
        description: ReportText.labelReportText,
        href: reportPaths.label(scanGroupId),
        disabled: why,
      });
  }
  if (studyId && data?.study) {
    const study = data.study;
    const allowed = canPrintStudy(ability, study);
    const why = !allowed
      ? ReportText.noPrintPermission
      : study.scanGroupIds.length === 0
        ? StudyText.noImages
        : undefined;
    choices.push({
      key: 'study',
      title: ReportText.studyReport,
      description: ReportText.studyReportText,
      href: reportPaths.study(study.id, data.numberOfAssays),
      disabled: why,
    });
    choices.push({
      key: 'qc',
      title: ReportText.qcReport,
      description: ReportText.qcReportText,
      href: reportPaths.qcImages(data.studyImageIds),
      disabled: why ?? (data.studyImageIds.length === 0 ? StudyText.noImages : undefined),
    });
  }

  return (
    <Modal opened={opened} onClose={onClose} title={ReportText.dialogTitle} size={850} centered>
      <Stack>
        <Text size="sm" c="dimmed">
          {ReportText.dialogIntro}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {choices.map((c) => (
            <Paper key={c.key} withBorder p="md" radius="md">
              <Stack gap="xs" h="100%" justify="space-between">
                <div>
                  <Text fw={600}>{c.title}</Text>
                  <Text size="sm" c="dimmed">
                    {c.description}
                  </Text>
                </div>
                <Group justify="flex-end">
                  <Tooltip label={c.disabled} disabled={!c.disabled} openDelay={300}>
                    <span>
                      <Button
                        disabled={!!c.disabled}
                        onClick={() => {
                          window.open(c.href, '_blank');
                        }}
                        aria-label={`Print ${c.title}`}
                      >
                        Print
                      </Button>
                    </span>
                  </Tooltip>
                </Group>
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
        {choices.length === 0 && <Text c="dimmed">{StudyText.noImages}</Text>}
      </Stack>
    </Modal>
  );
}

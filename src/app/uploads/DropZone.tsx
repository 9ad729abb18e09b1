// The uploader's drop zone and pickers (§2.6): slide files, or a folder holding an .mrxs file and its
// data folder; what it takes and says comes from src/api/slide-formats.ts.
import { useRef, useState } from 'react';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { ACCEPT_ATTRIBUTE, PICKER_TEXT } from '../../api/slide-formats';
import type { PickedFile } from '../../workers/uploads';
import { fromDataTransfer, fromFileList } from './drop';

export function DropZone({ onFiles }: { onFiles: (files: PickedFile[]) => void }) {
  const [over, setOver] = useState(false);
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const picked = (input: HTMLInputElement | null) => {
    if (input?.files?.length) onFiles(fromFileList(input.files));
    if (input) input.value = '';
  };
  return (
    <Paper
      withBorder
      p="xl"
      radius="md"
      data-testid="upload-drop-zone"
      style={{
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: over ? 'var(--mantine-color-blue-5)' : undefined,
      }}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void fromDataTransfer(e.dataTransfer).then(onFiles);
      }}
    >
      <Stack align="center" gap="xs">
        <Text fw={600}>Drop slide files here</Text>
        <Text size="sm" c="dimmed" ta="center">
          {PICKER_TEXT}
        </Text>
        <Group>
          <Button onClick={() => files.current?.click()}>Choose Files</Button>
          <Button variant="light" onClick={() => folder.current?.click()}>
            Choose Folder
          </Button>
        </Group>
        <input
          ref={files}
          type="file"
          multiple
          hidden
          accept={ACCEPT_ATTRIBUTE}
          data-testid="upload-file-input"
          onChange={(e) => picked(e.currentTarget)}
        />
        <input
          ref={(el) => {
            folder.current = el;
            // React has no typed prop for folder picking; the attribute is what browsers read.
            el?.setAttribute('webkitdirectory', '');
          }}
          type="file"
          multiple
          hidden
          data-testid="upload-folder-input"
          onChange={(e) => picked(e.currentTarget)}
        />
      </Stack>
    </Paper>
  );
}

// A small confirmation dialog (Remove Member, Remove Organization, remove slide from study, Delete
// Study, Archive, Reactivate): a title, the question, Cancel and a red confirm button.
import type { ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';

export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  color = 'red',
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  color?: string;
  onCancel(): void;
  onConfirm(): void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered zIndex={300}>
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color={color} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}

// The catalogue's create and edit form in a modal: fields, the server's refusal in red, Cancel and Save.
import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { ORGANIZATION_MODAL_WIDTH } from '../constants';

/** A modal form: fields, the server's refusal in red, Cancel and Save. */
export function CatalogEditModal({
  title,
  opened,
  onClose,
  onSave,
  canSave,
  children,
}: {
  title: string;
  opened: boolean;
  onClose(): void;
  onSave(): Promise<string | undefined>;
  canSave: boolean;
  children: ReactNode;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    const failed = await onSave();
    setBusy(false);
    setError(failed);
    if (!failed) onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={ORGANIZATION_MODAL_WIDTH}>
      <Stack gap="sm">
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={busy} disabled={!canSave} onClick={() => void save()}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

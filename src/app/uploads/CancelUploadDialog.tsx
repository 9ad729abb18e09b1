// 'Cancel image upload?' (§2.6): Continue Upload keeps going; Cancel Upload aborts the file and
// deletes what the server already has.
import { Button, Group, Modal, Text } from '@mantine/core';
import { UploadText } from '../../api/messages';

export function CancelUploadDialog({
  opened,
  onContinue,
  onCancelUpload,
}: {
  opened: boolean;
  onContinue: () => void;
  onCancelUpload: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onContinue} title={UploadText.cancelTitle} centered zIndex={400}>
      <Text size="sm">Once the upload is canceled, the images will not appear in the product.</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onContinue}>
          Continue Upload
        </Button>
        <Button color="red" onClick={onCancelUpload}>
          Cancel Upload
        </Button>
      </Group>
    </Modal>
  );
}

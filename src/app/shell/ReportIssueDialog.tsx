// 'Report Issue' (spec §2.10, §5, §8): opened by the help button or ?bugreport; a message of 1–2000
// characters is sent with POST /v2/mail/send-bugs.
import { useState } from 'react';
import { Button, Group, Modal, Text, Textarea, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { REPORT_MESSAGE_MAX } from '../../api/constants';
import { Report, extractMessage } from '../../api/messages';
import { api } from '../lib/api';

export function ReportIssueDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    try {
      await api('POST', '/mail/send-bugs', { body: { message } });
      notifications.show({ color: 'green', message: Report.submitted });
      setMessage('');
      onClose();
    } catch (error) {
      notifications.show({ color: 'red', message: extractMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  const empty = message.length === 0;
  return (
    <Modal opened={opened} onClose={onClose} title={Report.title} size="lg" centered>
      <Textarea
        aria-label={Report.title}
        placeholder={Report.placeholder}
        autosize
        minRows={6}
        maxRows={14}
        maxLength={REPORT_MESSAGE_MAX}
        value={message}
        onChange={(e) => setMessage(e.currentTarget.value)}
        data-autofocus
      />
      <Group justify="space-between" mt="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {message.length}/{REPORT_MESSAGE_MAX}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Tooltip label={Report.tooShort} disabled={!empty}>
            <span>
              <Button onClick={send} disabled={empty} loading={busy}>
                Send
              </Button>
            </span>
          </Tooltip>
        </Group>
      </Group>
    </Modal>
  );
}

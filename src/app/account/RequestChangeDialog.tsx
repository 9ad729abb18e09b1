// Asking an administrator for a change (§7 POST /v2/mail/request-change): a message and, optionally,
// the policies wanted; the server mails the organization's administrators and keeps the request on
// the user as requestedPolicies.
import { useState } from 'react';
import { Button, Group, Modal, MultiSelect, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { POLICIES } from '../../access';
import { REPORT_MESSAGE_MAX } from '../../api/constants';
import { AdminText, Report, extractMessage } from '../../api/messages';
import { ORGANIZATION_MODAL_WIDTH, PICKER_MAX_HEIGHT, TOAST_MS } from '../admin/constants';
import { inOrder, policyLabel } from '../admin/policies';
import { api } from '../lib/api';
import { useSession } from '../session/session-context';

export function RequestChangeDialog({
  opened,
  onClose,
  initialPolicies = [],
}: {
  opened: boolean;
  onClose(): void;
  initialPolicies?: string[];
}) {
  const session = useSession();
  const [message, setMessage] = useState('');
  const [policies, setPolicies] = useState<string[]>(initialPolicies);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    try {
      await api('POST', '/mail/request-change', {
        body: { message, ...(policies.length ? { policies: inOrder(policies) } : {}) },
      });
      notifications.show({ color: 'green', message: AdminText.changeRequested, autoClose: TOAST_MS });
      setMessage('');
      await session.reloadMe();
      onClose();
    } catch (error) {
      notifications.show({ color: 'red', message: extractMessage(error), autoClose: TOAST_MS });
    } finally {
      setBusy(false);
    }
  };
  const empty = message.trim().length === 0;
  return (
    <Modal opened={opened} onClose={onClose} title="Request a change" size={ORGANIZATION_MODAL_WIDTH}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Your organization&apos;s administrators receive your request by e-mail.
        </Text>
        <MultiSelect
          label="Policies you need"
          data={POLICIES.map((p) => ({ value: p, label: policyLabel(p) }))}
          value={policies}
          onChange={setPolicies}
          searchable
          clearable
          maxDropdownHeight={PICKER_MAX_HEIGHT}
        />
        <Textarea
          label="Message"
          placeholder="What would you like changed, and why?"
          autosize
          minRows={4}
          maxRows={10}
          maxLength={REPORT_MESSAGE_MAX}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          error={undefined}
        />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {message.length}/{REPORT_MESSAGE_MAX}
          </Text>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              loading={busy}
              disabled={empty}
              title={empty ? Report.tooShort : undefined}
              onClick={() => void send()}
            >
              Send request
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}

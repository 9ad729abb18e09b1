// Invite a user by e-mail (§7 POST /v2/users; §5 the address is checked with check-email as it is
// typed): into one of the organizations the user may add users to, with policies within what that
// organization has available, none ticked at first. Sent at once: the answer (a taken address, the user limit) matters now.
import { useEffect, useState } from 'react';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { errorText } from '../../api/errors';
import { AdminText, extractMessage } from '../../api/messages';
import type { User } from '../../api/users';
import { api } from '../lib/api';
import { useRefreshAdmin, type LocalOrganization } from './admin-data';
import { TOAST_MS } from './constants';
import { PolicyChecklist } from './PolicyChecklist';
import { inOrder } from './policies';
import { OrganizationSelect } from './selection';

const looksLikeEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim());

/** Whether the address is free: undefined while unknown (empty, malformed, asking). */
function useEmailAvailable(email: string): boolean | undefined {
  const [debounced] = useDebouncedValue(email.trim().toLowerCase(), 300);
  const [answer, setAnswer] = useState<{ email: string; available: boolean }>();
  useEffect(() => {
    if (!looksLikeEmail(debounced)) return;
    let live = true;
    api<{ isEmailAvailable: boolean }>('GET', `/users/check-email?email=${encodeURIComponent(debounced)}`)
      .then((r) => live && setAnswer({ email: debounced, available: r.isEmailAvailable }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [debounced]);
  return answer && answer.email === email.trim().toLowerCase() ? answer.available : undefined;
}

export function InviteForm({
  targets,
  defaultOrganizationId,
  onDone,
  submitLabel = 'Send invitation',
}: {
  targets: readonly LocalOrganization[];
  defaultOrganizationId?: string;
  onDone?(user: User): void;
  submitLabel?: string;
}) {
  const refresh = useRefreshAdmin();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [orgId, setOrgId] = useState<string | null>(null);
  const [policies, setPolicies] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const available = useEmailAvailable(email);
  const target = targets.find((o) => o.id === (orgId ?? defaultOrganizationId)) ?? targets[0];
  // Least privilege: an invitation starts with no policy ticked; the inviter ticks what the user needs
  // (the server, too, gives none unless asked).
  const chosen = inOrder(policies ?? []).filter((p) => target?.availablePolicies.includes(p));

  const invite = async () => {
    if (!target) return;
    setBusy(true);
    setError(undefined);
    try {
      const { result } = await api<{ result: User }>('POST', '/users', {
        body: {
          user: {
            email: email.trim(),
            ...(name.trim() ? { name: name.trim() } : {}),
            organizationId: target.id,
            enabledPolicies: chosen,
          },
        },
      });
      void refresh();
      notifications.show({
        color: 'green',
        message: AdminText.invitationSent(result.email),
        autoClose: TOAST_MS,
      });
      setEmail('');
      setName('');
      onDone?.(result);
    } catch (e) {
      setError(extractMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <TextInput
        label="E-mail"
        type="email"
        required
        value={email}
        maxLength={254}
        onChange={(e) => setEmail(e.currentTarget.value)}
        error={available === false ? errorText('EMAIL_TAKEN') : undefined}
      />
      <TextInput label="Name" value={name} maxLength={100} onChange={(e) => setName(e.currentTarget.value)} />
      <OrganizationSelect
        organizations={targets}
        value={target?.id ?? null}
        onChange={(id) => {
          setOrgId(id);
          setPolicies(null);
        }}
        w="100%"
      />
      {target && (
        <PolicyChecklist
          label="Enabled policies"
          value={chosen}
          onChange={setPolicies}
          selectable={target.availablePolicies}
        />
      )}
      <Group justify="flex-end">
        <Button
          loading={busy}
          disabled={!target || !looksLikeEmail(email) || available === false}
          onClick={() => void invite()}
        >
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}

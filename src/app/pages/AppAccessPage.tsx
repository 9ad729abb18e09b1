// /auth/app/{domain}: asks the server whether the signed-in user may use an application domain.
import { Alert, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AuthText, extractMessage } from '../../api/messages';
import { api } from '../lib/api';
import { PageFrame } from './data-view';

/** Which policies each application domain needs (docs/decisions.md). */
const DOMAIN_POLICIES: Record<string, string[]> = {
  uploader: ['uploadOrganizationImages'],
  admin: ['modifyOrganization'],
  platform: ['superAdmin'],
};

export function AppAccessPage({ domain }: { domain: string }) {
  const required = DOMAIN_POLICIES[domain] ?? [];
  const q = useQuery({
    queryKey: ['auth-app', domain],
    queryFn: () => api('POST', '/auth/app', { body: { requiredPolicies: required } }),
    retry: false,
  });
  return (
    <PageFrame title={`Access to ${domain}`}>
      <Stack>
        {q.isPending && <Text c="dimmed">Checking your access…</Text>}
        {q.isSuccess && <Alert color="green">You have access to {domain}.</Alert>}
        {q.isError && <Alert color="red">{extractMessage(q.error) || AuthText.missingPolicies}</Alert>}
      </Stack>
    </PageFrame>
  );
}

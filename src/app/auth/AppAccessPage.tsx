// /auth/app/{domain}: asks the server whether the signed-in user may use an application domain.
import { Alert, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { errorText } from '../../api/errors';
import { extractMessage } from '../../api/messages';
import { PageFrame } from '../shell/data-view';
import { appAccessQuery } from './queries';

export function AppAccessPage({ domain }: { domain: string }) {
  const q = useQuery(appAccessQuery(domain));
  return (
    <PageFrame title={`Access to ${domain}`}>
      <Stack>
        {q.isPending && <Text c="dimmed">Checking your access…</Text>}
        {q.isSuccess && <Alert color="green">You have access to {domain}.</Alert>}
        {q.isError && <Alert color="red">{extractMessage(q.error) || errorText('MISSING_POLICIES')}</Alert>}
      </Stack>
    </PageFrame>
  );
}

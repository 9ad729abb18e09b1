// Shared building blocks of pages: the page frame (title, subtitle, actions) and one /v2 resource
// fetched with its loading and error states.
import type { ReactNode } from 'react';
import { Alert, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Session, extractMessage } from '../../api/messages';
import { api } from '../lib/api';

export function PageFrame({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>{title}</Title>
        {subtitle && (
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        )}
      </div>
      {children}
    </Stack>
  );
}

function Loading() {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text c="dimmed" size="sm">
          {Session.loading}
        </Text>
      </Stack>
    </Center>
  );
}

/** One resource: `path` under /v2, answered as `{result}` or the entity itself. */
export function DataView<T>({ path, children }: { path: string; children(data: T): ReactNode }) {
  const q = useQuery({
    queryKey: ['v2', path],
    queryFn: async () => {
      const body = await api<{ result?: T } | T>('GET', path);
      // One entity comes as {result}; a list envelope {result, count, page, limit} is kept whole.
      const single = body && typeof body === 'object' && 'result' in body && !('count' in body);
      return (single ? (body as { result: T }).result : body) as T;
    },
    staleTime: 30_000,
  });
  if (q.isPending) return <Loading />;
  if (q.isError)
    return (
      <Alert color="red" variant="light">
        {extractMessage(q.error)}
      </Alert>
    );
  return <>{children(q.data)}</>;
}

// Shared building blocks of pages: the page frame (title, subtitle, actions) and one server resource
// shown with its loading and error states.
import type { ReactNode } from 'react';
import { Alert, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { Session, extractMessage } from '../../api/messages';

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

/** One server resource (the query options its route's loader starts), with its loading and error states. */
export function DataView<T, K extends QueryKey>({
  query,
  children,
}: {
  query: UseQueryOptions<T, Error, T, K>;
  children(data: T): ReactNode;
}) {
  const q = useQuery(query);
  if (q.isPending) return <Loading />;
  if (q.isError)
    return (
      <Alert color="red" variant="light">
        {extractMessage(q.error)}
      </Alert>
    );
  return <>{children(q.data)}</>;
}

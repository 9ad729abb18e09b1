// The downloads list popup (spec §2.4): files downloaded in this session with their progress; names
// truncated after 28 characters.
import { ActionIcon, Popover, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { useDownloads } from './downloads';
import { truncateName } from '../lib/format';

export function DownloadsPopup() {
  const downloads = useDownloads();
  return (
    <Popover position="bottom-end" width={300} withinPortal shadow="md">
      <Popover.Target>
        <Tooltip label="Downloads">
          <ActionIcon variant="subtle" size="lg" aria-label="Downloads">
            <svg
              width="20"
              height="20"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              aria-hidden
            >
              <path d="M12 3v12m0 0l-4-4m4 4l4-4M4 19h16" />
            </svg>
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        <Text fw={600} size="sm" mb="xs">
          Downloads
        </Text>
        {downloads.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing downloaded yet.
          </Text>
        ) : (
          <Stack gap="xs">
            {downloads.map((d) => (
              <div key={d.id}>
                <Text size="sm" title={d.name}>
                  {truncateName(d.name)}
                </Text>
                <Progress value={d.progress * 100} color={d.error ? 'red' : undefined} size="sm" />
                {d.error && (
                  <Text size="xs" c="red">
                    {d.error}
                  </Text>
                )}
              </div>
            ))}
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

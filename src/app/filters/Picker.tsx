// The multi-select pickers of §2.7: a button naming the filter (with how many are chosen), a dropdown
// with a search box, checkboxes (name, optional sub-line and monogram) and 'Load more'; 'No options'
// when nothing matches. Dropdown max height 300 px, width 320 (§9).
import { useMemo, useState } from 'react';
import {
  Avatar,
  Badge,
  Button,
  Checkbox,
  Group,
  Popover,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { Misc } from '../../api/messages';
import { initials } from '../lib/format';

export interface PickerOption {
  value: string;
  label: string;
  sub?: string;
}

/** Options shown at first and added by each 'Load more'. */
export const PICKER_PAGE = 20;

export function MultiPicker({
  label,
  options,
  value,
  onChange,
  monogram = false,
  width = 320,
}: {
  label: string;
  options: readonly PickerOption[];
  value: readonly string[];
  onChange(next: string[]): void;
  monogram?: boolean;
  width?: number;
}) {
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState(PICKER_PAGE);
  const matching = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q
      ? options.filter((o) => o.label.toLowerCase().includes(q) || o.sub?.toLowerCase().includes(q))
      : options;
  }, [options, query]);
  const toggle = (v: string) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v]);
  return (
    <Popover
      width={width}
      position="bottom-start"
      shadow="md"
      trapFocus
      onClose={() => setShown(PICKER_PAGE)}
    >
      <Popover.Target>
        <Button
          variant={value.length ? 'light' : 'default'}
          size="xs"
          rightSection={value.length ? <Badge size="xs">{value.length}</Badge> : '▾'}
        >
          {label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown p="xs" aria-label={`${label} filter`} role="dialog">
        <TextInput
          size="xs"
          placeholder="Search"
          aria-label={`Search ${label}`}
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            setShown(PICKER_PAGE);
          }}
          mb="xs"
        />
        <ScrollArea.Autosize mah={300} type="auto">
          {matching.length === 0 ? (
            <Text size="sm" c="dimmed" ta="center" py="sm">
              {Misc.noOptions}
            </Text>
          ) : (
            <Stack gap={4}>
              {matching.slice(0, shown).map((o) => (
                <UnstyledButton
                  key={o.value}
                  onClick={() => toggle(o.value)}
                  px={4}
                  py={2}
                  style={{ borderRadius: 4 }}
                >
                  <Group gap="xs" wrap="nowrap">
                    <Checkbox
                      size="xs"
                      checked={value.includes(o.value)}
                      onChange={() => toggle(o.value)}
                      onClick={(e) => e.stopPropagation()}
                      aria-label={o.label}
                    />
                    {monogram && (
                      <Avatar size="sm" radius="xl" color="tessera">
                        {initials(o.label)}
                      </Avatar>
                    )}
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" truncate>
                        {o.label}
                      </Text>
                      {o.sub && (
                        <Text size="xs" c="dimmed" truncate>
                          {o.sub}
                        </Text>
                      )}
                    </div>
                  </Group>
                </UnstyledButton>
              ))}
              {matching.length > shown && (
                <Button size="xs" variant="subtle" onClick={() => setShown((n) => n + PICKER_PAGE)}>
                  Load more
                </Button>
              )}
            </Stack>
          )}
        </ScrollArea.Autosize>
        {value.length > 0 && (
          <Button size="xs" variant="subtle" color="gray" fullWidth mt={4} onClick={() => onChange([])}>
            Clear
          </Button>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

// The 24 policies as grouped checkboxes. Only `selectable` ones can be ticked (what the organization
// has available, §6); the others stay visible, greyed, with the reason in a tooltip.
import { Checkbox, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { AdminText } from '../../api/messages';
import { TOOLTIP_DELAY_MS } from '../lib/DeniedTooltip';
import { POLICY_GROUPS, inOrder, policyLabel } from './policies';

export interface PolicyChecklistProps {
  value: readonly string[];
  onChange(next: string[]): void;
  /** Policies that may be ticked; the rest are shown disabled. */
  selectable: readonly string[];
  /** Why a policy outside `selectable` cannot be ticked. */
  unavailableReason?: string;
  /** Set when the whole list may not be changed by this user. */
  deniedReason?: string;
  /** Hide groups with no selectable policy (e.g. Platform for a lab). */
  hideEmptyGroups?: boolean;
  label?: string;
}

export function PolicyChecklist({
  value,
  onChange,
  selectable,
  unavailableReason = AdminText.notAvailable,
  deniedReason,
  hideEmptyGroups = true,
  label,
}: PolicyChecklistProps) {
  const can = new Set(selectable);
  const on = new Set(value);
  const toggle = (p: string, checked: boolean) =>
    onChange(inOrder(checked ? [...value, p] : value.filter((v) => v !== p)));
  const groups = POLICY_GROUPS.filter((g) => !hideEmptyGroups || g.policies.some((p) => can.has(p)));
  return (
    <Stack gap="sm" role="group" aria-label={label ?? 'Policies'}>
      {label && (
        <Group justify="space-between">
          <Text fw={600} size="sm">
            {label}
          </Text>
          <Text size="xs" c="dimmed">
            {value.filter((p) => can.has(p)).length} of {selectable.length} enabled
          </Text>
        </Group>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        {groups.map((g) => (
          <Stack key={g.title} gap={6}>
            <Text size="xs" tt="uppercase" fw={700} c="dimmed">
              {g.title}
            </Text>
            {g.policies.map((p) => {
              const reason = deniedReason ?? (can.has(p) ? undefined : unavailableReason);
              const box = (
                <Checkbox
                  key={p}
                  label={policyLabel(p)}
                  description={p}
                  checked={on.has(p) && can.has(p)}
                  disabled={!!reason}
                  onChange={(e) => toggle(p, e.currentTarget.checked)}
                />
              );
              return reason ? (
                <Tooltip key={p} label={reason} openDelay={TOOLTIP_DELAY_MS} position="top-start">
                  <div>{box}</div>
                </Tooltip>
              ) : (
                box
              );
            })}
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

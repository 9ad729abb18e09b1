// The list scaffolding of the administrator pages (teams, users, organizations, catalogue): a caption
// with the page's create action, 'Results Not Found' in a card when the list is empty, otherwise a
// striped table in a card that scrolls sideways on narrow screens; and the cells those lists repeat.
// Every control follows the abilities: disabled, with the denial's tooltip (lib/DeniedTooltip.tsx).
import type { KeyboardEvent, ReactNode } from 'react';
import { Button, Card, Group, ScrollArea, Table, Text } from '@mantine/core';
import { Misc } from '../../api/messages';
import { DeniedTooltip } from '../lib/DeniedTooltip';
import { RowBadge } from './RowState';

export interface AdminColumn<T> {
  /** The header text; also the column's key, so unique within a table. */
  label: string;
  render(row: T): ReactNode;
}

/** The line above a list: what it shows (dimmed) and its create button. */
export function AdminListHeader({
  caption,
  action,
  deniedReason,
  onAction,
}: {
  caption: ReactNode;
  action: string;
  /** Why the user may not create (the button is then disabled). */
  deniedReason?: string;
  onAction(): void;
}) {
  return (
    <Group justify="space-between">
      <Text c="dimmed" size="sm">
        {caption}
      </Text>
      <DeniedTooltip reason={deniedReason}>
        <Button disabled={!!deniedReason} onClick={onAction}>
          {action}
        </Button>
      </DeniedTooltip>
    </Group>
  );
}

/**
 * The list itself. `rows` undefined (still reading) shows an empty table rather than 'Results Not
 * Found'. `actions` adds a last, unlabelled column with the row's buttons, right-aligned.
 */
export function AdminTable<T extends { id: string }>({
  rows,
  columns,
  minWidth,
  actions,
  footer,
  onOpen,
  openLabel,
}: {
  rows?: readonly T[];
  columns: readonly AdminColumn<T>[];
  /** Pixels below which the table scrolls sideways. */
  minWidth: number;
  actions?(row: T): ReactNode;
  /** Under the table, inside its card. */
  footer?: ReactNode;
  /** A click on a row (or Enter on it) opens what it lists. */
  onOpen?(row: T): void;
  /** The accessible name of an openable row ('Open Northside Lab'). */
  openLabel?(row: T): string;
}) {
  if (rows && rows.length === 0)
    return (
      <Card withBorder>
        <Text c="dimmed" ta="center">
          {Misc.resultsNotFound}
        </Text>
      </Card>
    );
  return (
    <Card withBorder p={0}>
      <ScrollArea>
        <Table striped highlightOnHover miw={minWidth}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.label}>{c.label}</Table.Th>
              ))}
              {actions && <Table.Th />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(rows ?? []).map((row) => (
              <Table.Tr
                key={row.id}
                {...(onOpen && {
                  tabIndex: 0,
                  'aria-label': openLabel?.(row),
                  style: { cursor: 'pointer' },
                  onClick: () => onOpen(row),
                  onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => {
                    if (e.key === 'Enter' && e.target === e.currentTarget) onOpen(row);
                  },
                })}
              >
                {columns.map((c) => (
                  <Table.Td key={c.label}>{c.render(row)}</Table.Td>
                ))}
                {actions && (
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {actions(row)}
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {footer}
    </Card>
  );
}

/** A row's button (Modify, Remove, Edit, Delete): disabled with the tooltip when `deniedReason` is set. */
export function RowAction({
  label,
  deniedReason,
  onClick,
  ariaLabel,
  color,
}: {
  label: string;
  deniedReason?: string;
  onClick(): void;
  /** When the visible label alone does not say which row (`Modify ${email}`). */
  ariaLabel?: string;
  color?: string;
}) {
  return (
    <DeniedTooltip reason={deniedReason}>
      <Button
        size="xs"
        variant="light"
        color={color}
        disabled={!!deniedReason}
        onClick={onClick}
        aria-label={ariaLabel}
      >
        {label}
      </Button>
    </DeniedTooltip>
  );
}

/** A row's name in bold with its sync marker (Pending, Not saved). */
export function NameCell({
  name,
  row,
  nowrap,
}: {
  name: string;
  row: { $pending?: number; $failed?: string };
  nowrap?: boolean;
}) {
  return (
    <Group gap="xs" wrap={nowrap ? 'nowrap' : undefined}>
      <Text size="sm" fw={500}>
        {name}
      </Text>
      <RowBadge row={row} />
    </Group>
  );
}

/** An organization's own users against its limit, which counts only those ('3 of 10'), or '—'. */
export const userLimitText = (o: { numberOfUsers: number; userLimit: number | null }) =>
  o.userLimit !== null ? `${o.numberOfUsers} of ${o.userLimit}` : '—';

/**
 * How many users an organization's Users page shows: its own and its teams', from the same local
 * store that page reads, so the count in a list and the list behind it agree.
 */
export function usersShownFor(
  org: { id: string },
  orgs: readonly { id: string; parentIds: readonly string[] }[],
  users: readonly { organizationId: string }[] | undefined,
): number | string {
  if (!users) return '…';
  const tree = new Set(orgs.filter((o) => o.id === org.id || o.parentIds.includes(org.id)).map((o) => o.id));
  return users.filter((u) => tree.has(u.organizationId)).length;
}

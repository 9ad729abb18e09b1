// A catalogue list (organs, pipelines, predictors): the New button, the rows with Edit and Delete,
// each guarded by the abilities, and the server's refusal of a deletion above the table.
import { useState } from 'react';
import { Alert, Stack } from '@mantine/core';
import { asSubject, denialMessage, type SubjectType } from '../../../access';
import { useAbility } from '../../session/ability';
import { AdminListHeader, AdminTable, RowAction, type AdminColumn } from '../AdminTable';

/** A catalogue list: New button, rows with Edit and Delete, each guarded by the abilities. */
export function CatalogTable<T extends { id: string }>({
  type,
  rows,
  columns,
  onCreate,
  onEdit,
  onDelete,
  noun,
}: {
  type: SubjectType;
  rows?: T[];
  columns: AdminColumn<T>[];
  onCreate(): void;
  onEdit(row: T): void;
  onDelete(row: T): Promise<string | undefined>;
  noun: string;
}) {
  const { ability } = useAbility();
  const [error, setError] = useState<string>();
  return (
    <Stack gap="md">
      <AdminListHeader
        caption={rows ? `${rows.length} ${noun.toLowerCase()}${rows.length === 1 ? '' : 's'}` : ''}
        action={`New ${noun.toLowerCase()}`}
        deniedReason={denialMessage(ability, 'create', type)}
        onAction={onCreate}
      />
      {error && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setError(undefined)}>
          {error}
        </Alert>
      )}
      <AdminTable
        rows={rows}
        minWidth={640}
        columns={columns}
        actions={(row) => {
          const subject = asSubject(type, row as never);
          return (
            <>
              <RowAction
                label="Edit"
                deniedReason={denialMessage(ability, 'update', subject)}
                onClick={() => onEdit(row)}
              />
              <RowAction
                label="Delete"
                color="red"
                deniedReason={denialMessage(ability, 'delete', subject)}
                onClick={() => void onDelete(row).then(setError)}
              />
            </>
          );
        }}
      />
    </Stack>
  );
}

// /administrator/annotation-classes: the selected organization's annotation classes (name, colour),
// with the classes its parents pass down shown but not editable here. Adding, renaming, recolouring
// and removing take the right to add annotations in that organization (src/access); changes go
// straight to the API (like the admin creates) and a rename carries into the annotations.
import { useState } from 'react';
import { Button, Card, ColorInput, ColorSwatch, Group, Stack, Text, TextInput } from '@mantine/core';
import { asSubject, denialMessage } from '../../access';
import {
  ANNOTATION_CLASS_NAME_MAX,
  AnnotationClassText,
  type AnnotationClass,
} from '../../api/annotation-classes';
import { extractMessage } from '../../api/messages';
import { api } from '../lib/api';
import { DeniedTooltip } from '../lib/DeniedTooltip';
import { useAbility } from '../session/ability';
import { useMe } from '../session/session-context';
import {
  useAnnotationClasses,
  useRefreshAnnotationClasses,
} from '../viewer/annotations/useAnnotationClasses';
import { AdminTable, RowAction } from './AdminTable';
import { useSelection } from './selection';

const DEFAULT_COLOR = '#c83232';

/** Name and colour fields with their submit button: the add form and a row's editor. */
function ClassFields({
  initial,
  submit,
  onSubmit,
  onCancel,
  denied,
}: {
  initial: { name: string; color: string };
  submit: string;
  onSubmit(value: { name: string; color: string }): Promise<void>;
  onCancel?(): void;
  denied?: string;
}) {
  const [name, setName] = useState(initial.name);
  const [color, setColor] = useState(initial.color);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit({ name: name.trim(), color });
      if (!onCancel) setName('');
    } catch (e) {
      setError(extractMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          label={AnnotationClassText.name}
          maxLength={ANNOTATION_CLASS_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          disabled={!!denied}
          w={220}
        />
        <ColorInput
          label={AnnotationClassText.color}
          format="hex"
          value={color}
          onChange={setColor}
          disabled={!!denied}
          w={140}
        />
        <DeniedTooltip reason={denied}>
          <Button loading={busy} disabled={!!denied || !name.trim()} onClick={() => void save()}>
            {submit}
          </Button>
        </DeniedTooltip>
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </Group>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

export function AnnotationClassesPage() {
  const { selected } = useSelection();
  const { ability } = useAbility();
  const me = useMe();
  const classes = useAnnotationClasses(selected?.id);
  const refresh = useRefreshAnnotationClasses();
  const [editing, setEditing] = useState<string>();
  const [removeError, setRemoveError] = useState<string>();
  if (!selected) return null;
  const denied = denialMessage(
    ability,
    'create',
    asSubject('Annotation', { organizationId: selected.id, creatorUserId: me.user.id }),
  );
  const own = (c: AnnotationClass) => c.organizationId === selected.id;

  const add = async (v: { name: string; color: string }) => {
    await api('POST', '/annotation-classes', {
      body: { annotationClass: { ...v, organizationId: selected.id } },
    });
    await refresh();
  };
  const change = async (id: string, v: { name: string; color: string }) => {
    await api('PATCH', `/annotation-classes/${encodeURIComponent(id)}`, { body: { annotationClass: v } });
    setEditing(undefined);
    await refresh();
  };
  const remove = async (id: string) => {
    setRemoveError(undefined);
    try {
      await api('DELETE', `/annotation-classes/${encodeURIComponent(id)}`);
      await refresh();
    } catch (e) {
      setRemoveError(extractMessage(e));
    }
  };

  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        {AnnotationClassText.intro}
      </Text>
      <Card withBorder>
        <ClassFields
          key={selected.id}
          initial={{ name: '', color: DEFAULT_COLOR }}
          submit={AnnotationClassText.add}
          onSubmit={add}
          denied={denied}
        />
      </Card>
      {(classes.isError || removeError) && (
        <Text size="sm" c="red" role="alert">
          {removeError ?? extractMessage(classes.error)}
        </Text>
      )}
      <AdminTable
        rows={classes.data}
        minWidth={420}
        columns={[
          {
            label: AnnotationClassText.name,
            render: (c) =>
              editing === c.id ? (
                <ClassFields
                  initial={{ name: c.name, color: c.color }}
                  submit="Save"
                  onSubmit={(v) => change(c.id, v)}
                  onCancel={() => setEditing(undefined)}
                  denied={denied}
                />
              ) : (
                <Group gap="xs" wrap="nowrap">
                  <ColorSwatch color={c.color} size={16} />
                  <Text size="sm" fw={500}>
                    {c.name}
                  </Text>
                  {!own(c) && (
                    <Text size="xs" c="dimmed">
                      {AnnotationClassText.inherited}
                    </Text>
                  )}
                </Group>
              ),
          },
        ]}
        actions={(c) =>
          own(c) && editing !== c.id ? (
            <>
              <RowAction
                label="Edit"
                ariaLabel={`Edit ${c.name}`}
                deniedReason={denied}
                onClick={() => setEditing(c.id)}
              />
              <RowAction
                label="Remove"
                ariaLabel={`Remove ${c.name}`}
                color="red"
                deniedReason={denied}
                onClick={() => void remove(c.id)}
              />
            </>
          ) : null
        }
      />
    </Stack>
  );
}

// A text of a list that its author may change in place (§6.2: one's own review comments and
// annotations): a header line with Edit for the author, then the text, or while editing a box with
// Save (disabled while blank; saves the trimmed text) and Cancel. The list holds which item is being
// edited, so only one is open at a time.
import { useState, type ReactNode } from 'react';
import { Button, Group, Text, Textarea } from '@mantine/core';
import { DeniedTooltip } from '../lib/DeniedTooltip';

export function EditableOwnText({
  header,
  text,
  editable,
  denied,
  editing,
  onEditingChange,
  label,
  maxLength,
  onSave,
}: {
  /** What stands left of Edit: author, date, state. */
  header: ReactNode;
  text: string;
  /** The viewer wrote it. */
  editable: boolean;
  /** Why the author may not change it (their permission): Edit shows disabled with this reason. */
  denied?: string;
  editing: boolean;
  onEditingChange(editing: boolean): void;
  /** The edit box's accessible name. */
  label: string;
  maxLength?: number;
  /** Gets the trimmed, non-blank text; the editor closes at once (the change goes through the outbox). */
  onSave(text: string): void;
}) {
  const [draft, setDraft] = useState('');
  return (
    <>
      <Group justify="space-between" gap="xs">
        {header}
        {editable && !editing && (
          <DeniedTooltip reason={denied}>
            <Button
              variant="subtle"
              size="compact-sm"
              disabled={!!denied}
              onClick={() => {
                setDraft(text);
                onEditingChange(true);
              }}
            >
              Edit
            </Button>
          </DeniedTooltip>
        )}
      </Group>
      {editing ? (
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <Textarea
            style={{ flex: 1 }}
            autosize
            minRows={1}
            maxLength={maxLength}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            aria-label={label}
          />
          <Button
            disabled={!draft.trim()}
            onClick={() => {
              onSave(draft.trim());
              onEditingChange(false);
            }}
          >
            Save
          </Button>
          <Button variant="default" onClick={() => onEditingChange(false)}>
            Cancel
          </Button>
        </Group>
      ) : (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {text}
        </Text>
      )}
    </>
  );
}

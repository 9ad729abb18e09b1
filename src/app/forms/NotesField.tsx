// The free-text Notes field of slide labels and scan orders. Its limit is the API's (NOTES_MAX), so
// the field stops typing before the server would refuse.
import { Textarea } from '@mantine/core';
import { NOTES_MAX } from '../../api/constants';

export function NotesField({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange(next: string): void;
  disabled?: boolean;
}) {
  return (
    <Textarea
      label="Notes"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maxLength={NOTES_MAX}
      autosize
      minRows={2}
      disabled={disabled}
    />
  );
}

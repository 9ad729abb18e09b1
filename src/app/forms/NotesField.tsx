// The free-text Notes field of slide labels and scan orders. Its limit matches the API's (2000
// characters in src/api/scan-groups.ts and src/api/orders.ts), so the field stops typing before the
// server would refuse.
import { Textarea } from '@mantine/core';

const NOTES_MAX = 2000;

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

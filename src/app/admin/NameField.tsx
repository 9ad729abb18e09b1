// A user's Name field (account settings, the user modal): 100 characters at most, disabled with the
// denial's tooltip when the user may not change it (§6.2 field rules).
import { TextInput } from '@mantine/core';
import { USER_NAME_MAX } from '../../api/constants';
import { DeniedTooltip } from '../lib/DeniedTooltip';

export function NameField({
  value,
  onChange,
  deniedReason,
}: {
  value: string;
  onChange(next: string): void;
  deniedReason?: string;
}) {
  return (
    <DeniedTooltip reason={deniedReason} block>
      <TextInput
        label="Name"
        value={value}
        maxLength={USER_NAME_MAX}
        disabled={!!deniedReason}
        onChange={(e) => onChange(e.currentTarget.value)}
        w="100%"
      />
    </DeniedTooltip>
  );
}

// Asks the user to replace the password the first start generated and printed (it has sat in a
// terminal), until they do. It is decided from the signed-in user as known at sign-in, so it is part
// of the first frame and never pushes the page down after it has drawn.
import { Alert, Anchor, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { FirstRunText } from '../../api/first-run';
import { useMe } from '../session/session-context';

export function PasswordPrompt() {
  const me = useMe();
  if (!me.passwordChangeAdvised) return null;
  return (
    <Alert color="yellow" variant="light" radius={0} py={8} role="status" data-testid="password-prompt">
      <Group gap="sm" wrap="wrap">
        <Text size="sm">{FirstRunText.changePassword}</Text>
        <Anchor component={Link} to="/account-settings/basic-information" size="sm" fw={600}>
          {FirstRunText.changePasswordAction}
        </Anchor>
      </Group>
    </Alert>
  );
}

// The signed-in user's abilities (src/access), built once per session state, for greying out controls.
import { useMemo } from 'react';
import { defineAbilityFor, type AppAbility, type Me as AccessMe } from '../../access';
import { useMe } from './session-context';

export function useAbility(): { ability: AppAbility; me: AccessMe } {
  const me = useMe();
  return useMemo(
    () => ({
      ability: defineAbilityFor({ user: me.user, organization: me.organization }),
      me: { userId: me.user.id, organizationId: me.organization.id },
    }),
    [me],
  );
}

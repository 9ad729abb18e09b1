// Under a picker that has nothing to offer: says where to fix it, as a link, to whoever may (the
// catalogue's administrators for organs and pipelines, study creators for studies), and whom to ask
// to everyone else. Shown only once the list is known to be empty, never while it loads.
import { Anchor, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { canCreateStudy } from '../../access';
import { EmptyPickerText } from '../../api/first-run';
import { useAbility } from '../session/ability';

export type EmptyPickerKind = 'organs' | 'pipelines' | 'studies';

const FIX: Record<EmptyPickerKind, { text: string; href: string }> = {
  organs: { text: EmptyPickerText.organsFix, href: '/administrator/organs' },
  pipelines: { text: EmptyPickerText.pipelinesFix, href: '/administrator/pipelines' },
  studies: { text: EmptyPickerText.studiesFix, href: '/dashboard/studies?new-study' },
};

const ASK: Record<EmptyPickerKind, string> = {
  organs: EmptyPickerText.organsAsk,
  pipelines: EmptyPickerText.pipelinesAsk,
  studies: EmptyPickerText.studiesAsk,
};

export function EmptyPickerHint({ kind, empty }: { kind: EmptyPickerKind; empty: boolean }) {
  const { ability, me } = useAbility();
  const navigate = useNavigate();
  if (!empty) return null;
  const mayFix =
    kind === 'organs'
      ? ability.can('create', 'Organ')
      : kind === 'pipelines'
        ? ability.can('create', 'Pipeline')
        : canCreateStudy(ability, me);
  const fix = FIX[kind];
  return (
    <Text size="sm" c="dimmed" data-testid={`empty-${kind}`}>
      {mayFix ? (
        <Anchor
          href={fix.href}
          size="sm"
          onClick={(e) => {
            e.preventDefault();
            void navigate({ href: fix.href });
          }}
        >
          {fix.text}
        </Anchor>
      ) : (
        ASK[kind]
      )}
    </Text>
  );
}

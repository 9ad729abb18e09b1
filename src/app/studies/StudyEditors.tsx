// The two study edits the offline scenarios need, on the study card: rename (§4.5: Enter saves, blur
// cancels, an empty or unchanged name is not saved; one over §5's 100 characters keeps the editor
// open with its message) and add a tag (§5: at most 16 characters, a duplicate gives 'This tag already
// exists', the add control is hidden from 29 tags on). Both go through the outbox: a rename is a
// PATCH of the name, a tag an `add` operation, so two offline tag edits merge.
import { useState } from 'react';
import { ActionIcon, Text, TextInput } from '@mantine/core';
import { STUDY_NAME_MAX, TAGS_PER_STUDY_MAX } from '../../api/constants';
import type { Study } from '../../api/entities';
import { StudyRuleText } from '../../api/studies';
import { addTagProblem } from '../../api/tag-rules';
import { useMutations } from '../sync/hooks';
import { Tip } from '../lib/Tip';

export function RenameStudy({ study, onDone }: { study: Study; onDone(): void }) {
  const mutations = useMutations();
  const [name, setName] = useState(study.name);
  const trimmed = name.trim();
  const tooLong = trimmed.length > STUDY_NAME_MAX;
  const save = async () => {
    // A name over the limit is not dropped: the editor stays open with the rule's message.
    if (tooLong) return;
    if (!trimmed || trimmed === study.name) return onDone();
    await mutations.update('studies', study.id, { set: { name: trimmed } });
    onDone();
  };
  return (
    <TextInput
      aria-label="Study name"
      size="xs"
      value={name}
      autoFocus
      error={tooLong ? StudyRuleText.nameTooLong : undefined}
      onChange={(e) => setName(e.currentTarget.value)}
      onBlur={onDone}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void save();
        if (e.key === 'Escape') onDone();
      }}
    />
  );
}

/** Whether the add-tag control shows: hidden from 29 tags on (§5). */
export const canAddMoreTags = (study: Study) => study.tags.length < TAGS_PER_STUDY_MAX - 1;

/** `bare`: the button without its tooltip yet (a study card's first render, StudyCard.tsx). */
export function AddTag({ study, bare = false }: { study: Study; bare?: boolean }) {
  const mutations = useMutations();
  const [open, setOpen] = useState(false);
  const [tag, setTag] = useState('');
  const [error, setError] = useState<string>();
  if (!canAddMoreTags(study)) return null;
  const close = () => {
    setOpen(false);
    setTag('');
    setError(undefined);
  };
  const add = async () => {
    const value = tag.trim();
    if (!value) return close();
    const problem = addTagProblem(study.tags, value);
    if (problem) return setError(problem);
    await mutations.update('studies', study.id, { add: { tags: [value] } });
    close();
  };
  if (!open)
    return (
      <Tip bare={bare} label="Add tag">
        <ActionIcon size="sm" variant="light" aria-label="Add tag" onClick={() => setOpen(true)}>
          <Text size="sm" fw={700}>
            +
          </Text>
        </ActionIcon>
      </Tip>
    );
  return (
    <TextInput
      aria-label="New tag"
      size="xs"
      w={140}
      autoFocus
      value={tag}
      error={error}
      onChange={(e) => {
        setTag(e.currentTarget.value);
        setError(undefined);
      }}
      onBlur={close}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void add();
        if (e.key === 'Escape') close();
      }}
    />
  );
}

// The animal-then-organ picker of a slide label (§2.10, §5): Animal first, then Organ, which stays
// disabled with 'Select an animal first' (as placeholder and tooltip) until an animal is chosen;
// choosing another animal clears the organ. The caller supplies the organs (local mirror or API); an
// empty catalogue says under the pickers where organs are added.
import { useMemo } from 'react';
import { Select, Tooltip } from '@mantine/core';
import type { Organ } from '../../api/entities';
import { Misc } from '../../api/messages';
import { EmptyPickerHint } from './EmptyPickerHint';

export interface AnimalOrgan {
  animal: string | null;
  organId: string | null;
}

export const NO_ANIMAL_ORGAN: AnimalOrgan = { animal: null, organId: null };

export function AnimalOrganPicker({
  organs,
  value,
  onChange,
  searchable,
  autoFocus,
  zIndex,
  tooltipOpenDelay,
}: {
  /** Undefined while the list is still loading. */
  organs: readonly Organ[] | undefined;
  value: AnimalOrgan;
  onChange(next: AnimalOrgan): void;
  /** Typing filters the options. */
  searchable?: boolean;
  /** The Animal field takes the focus when its modal opens (Mantine's data-autofocus). */
  autoFocus?: boolean;
  /** For a modal stacked above another one: the dropdowns and the tooltip must open above it. */
  zIndex?: number;
  /** Milliseconds before the disabled Organ field's tooltip shows. */
  tooltipOpenDelay?: number;
}) {
  const { animal, organId } = value;
  const animals = useMemo(() => [...new Set((organs ?? []).map((o) => o.animal))].sort(), [organs]);
  const organOptions = (organs ?? [])
    .filter((o) => o.animal === animal)
    .map((o) => ({ value: o.id, label: o.name }));
  const comboboxProps = zIndex === undefined ? undefined : { zIndex };
  return (
    <>
      <Select
        label="Animal"
        placeholder="Choose an animal"
        data={animals}
        value={animal}
        onChange={(v) => onChange({ animal: v, organId: null })}
        nothingFoundMessage={Misc.noOptions}
        comboboxProps={comboboxProps}
        searchable={searchable}
        required
        data-autofocus={autoFocus || undefined}
      />
      <Tooltip
        label={Misc.selectAnimalFirst}
        disabled={!!animal}
        openDelay={tooltipOpenDelay}
        zIndex={zIndex}
      >
        <div>
          <Select
            label="Organ"
            placeholder={animal ? 'Choose an organ' : Misc.selectAnimalFirst}
            data={organOptions}
            value={organId}
            onChange={(v) => onChange({ animal, organId: v })}
            disabled={!animal}
            nothingFoundMessage={Misc.noOptions}
            comboboxProps={comboboxProps}
            searchable={searchable}
            required
          />
        </div>
      </Tooltip>
      <EmptyPickerHint kind="organs" empty={organs?.length === 0} />
    </>
  );
}

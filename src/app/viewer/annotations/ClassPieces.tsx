// The annotation class in the viewer: a colour dot and name (the organization's colour for a class of
// its list, else the colour the annotation holds), a picker of the list's classes for one's own region,
// and the panel's filter by class with a count on each choice.
import { Badge, Chip, ColorSwatch, Group, Select } from '@mantine/core';
import { AnnotationClassText, classNamed, type AnnotationClass } from '../../../api/annotation-classes';
import type { Classification } from '../../../api/annotation-geojson';

/** The colour to show a class in: the list's, else the annotation's own, else none. */
export function classColor(cls: Classification | undefined, classes?: readonly AnnotationClass[]) {
  if (!cls) return undefined;
  return classNamed(classes, cls.name)?.color ?? (cls.color ? `rgb(${cls.color.join(',')})` : undefined);
}

export function ClassBadge({ cls, color }: { cls: Classification; color?: string }) {
  return (
    <Badge
      size="sm"
      variant="outline"
      color="gray"
      tt="none"
      leftSection={color ? <ColorSwatch color={color} size={8} withShadow={false} /> : undefined}
    >
      {cls.name}
    </Badge>
  );
}

/** Picks one of the list's classes (or none) for a region; a class outside the list is offered as it is. */
export function ClassPicker({
  value,
  classes,
  onChange,
  disabled,
}: {
  value?: Classification;
  classes: readonly AnnotationClass[];
  onChange(cls: AnnotationClass | { name: string; color: string } | null): void;
  disabled?: boolean;
}) {
  const known = classNamed(classes, value?.name);
  const data = classes.map((c) => ({ value: c.name, label: c.name }));
  if (value && !known) data.push({ value: value.name, label: value.name });
  const colorOf = (name: string) =>
    classColor({ name, color: value?.name === name ? value.color : undefined }, classes);
  return (
    <Select
      size="xs"
      w={170}
      aria-label={AnnotationClassText.classLabel}
      placeholder={AnnotationClassText.noClass}
      data={data}
      value={known?.name ?? value?.name ?? null}
      clearable
      disabled={disabled}
      leftSection={value ? <ColorSwatch color={colorOf(value.name) ?? 'transparent'} size={10} /> : undefined}
      renderOption={({ option }) => (
        <Group gap={6} wrap="nowrap">
          <ColorSwatch color={colorOf(option.value) ?? 'transparent'} size={10} />
          {option.label}
        </Group>
      )}
      onChange={(name) => {
        if (!name) return onChange(null);
        const cls = classNamed(classes, name);
        if (cls) onChange(cls);
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** '' is every annotation, null those without a class, else a class name. */
export type ClassFilterValue = string | null;

export function ClassFilter({
  counts,
  total,
  value,
  onChange,
  classes,
}: {
  /** Annotations per class name; the key null counts those without a class. */
  counts: ReadonlyMap<string | null, number>;
  total: number;
  value: ClassFilterValue;
  onChange(v: ClassFilterValue): void;
  classes?: readonly AnnotationClass[];
}) {
  const names = [
    ...(classes ?? []).map((c) => c.name),
    ...[...counts.keys()].filter((k): k is string => k !== null && !classNamed(classes, k)),
  ];
  const key = (v: ClassFilterValue) => (v === null ? '\u0000none' : v);
  return (
    <Chip.Group
      multiple={false}
      value={key(value)}
      onChange={(v) => onChange(v === '' ? '' : v === '\u0000none' ? null : v)}
    >
      <Group gap={6} wrap="wrap" data-testid="class-filter">
        <Chip size="xs" value="">
          {AnnotationClassText.all} {total}
        </Chip>
        {names.map((n) => (
          <Chip key={n} size="xs" value={n} color="gray">
            {n} {counts.get(n) ?? 0}
          </Chip>
        ))}
        <Chip size="xs" value={'\u0000none'} color="gray">
          {AnnotationClassText.unclassified} {counts.get(null) ?? 0}
        </Chip>
      </Group>
    </Chip.Group>
  );
}

// Organization selection (§5): which of the organizations the user administers the admin screens
// show. Organizations not available to the user are not offered; with none, the spec's text.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { Alert, Select } from '@mantine/core';
import { Denied, Misc } from '../../api/messages';
import { useMe } from '../session/session-context';
import { pathName, useAdministeredOrganizations, type LocalOrganization } from './admin-data';
import { PICKER_MAX_HEIGHT } from './constants';

interface Selection {
  /** Undefined while the local store answers. */
  organizations?: LocalOrganization[];
  selected?: LocalOrganization;
  select(id: string): void;
}

const SelectionContext = createContext<Selection | null>(null);

export function OrganizationSelectionProvider({ children }: { children: ReactNode }) {
  const me = useMe();
  const organizations = useAdministeredOrganizations();
  const [chosen, setChosen] = useState<string>(me.organization.id);
  const value = useMemo<Selection>(() => {
    const selected = organizations?.find((o) => o.id === chosen) ?? organizations?.[0];
    return { organizations, selected, select: setChosen };
  }, [organizations, chosen]);
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

export function useSelection(): Selection {
  const value = useContext(SelectionContext);
  if (!value) throw new Error('useSelection needs <OrganizationSelectionProvider>');
  return value;
}

/** The picker; alone it also serves forms (team parent, invitation target) through `value`/`onChange`. */
export function OrganizationSelect({
  organizations,
  value,
  onChange,
  label = 'Organization',
  w = 320,
}: {
  organizations: readonly LocalOrganization[];
  value: string | null;
  onChange(id: string): void;
  label?: string;
  w?: number | string;
}) {
  if (organizations.length === 0)
    return (
      <Alert color="gray" variant="light" w={w}>
        {Denied.noOrganizations}
      </Alert>
    );
  return (
    <Select
      label={label}
      data={organizations.map((o) => ({ value: o.id, label: pathName(organizations, o) }))}
      value={value}
      onChange={(v) => v && onChange(v)}
      searchable
      allowDeselect={false}
      nothingFoundMessage={Misc.noOptions}
      maxDropdownHeight={PICKER_MAX_HEIGHT}
      w={w}
    />
  );
}

/** The admin area's picker of the organization its screens show. */
export function SelectedOrganizationPicker() {
  const { organizations, selected, select } = useSelection();
  if (!organizations) return null;
  return (
    <OrganizationSelect
      organizations={organizations}
      value={selected?.id ?? null}
      onChange={select}
      label="Showing organization"
    />
  );
}

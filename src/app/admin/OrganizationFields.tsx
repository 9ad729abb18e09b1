// The fields of an organization or team (§3): name, contact details, administrator, slide expiry
// defaults and user limit. Each field is disabled with the denial tooltip when the user may not
// change it (`deny(field)` gives the reason), so one form serves the organization page, the team
// modal, the setup flow and /new-organization.
import { Grid, NumberInput, Select, Text, TextInput } from '@mantine/core';
import { Misc } from '../../api/messages';
import type { Organization } from '../../api/users';
import { DeniedTooltip } from '../lib/DeniedTooltip';
import { USER_DROPDOWN_MAX_HEIGHT } from './constants';

export interface OrganizationValues {
  name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  phone: string;
  email: string;
  country: string;
  adminUserId: string | null;
  defaultActiveExpiryDays: number | '';
  maxDefaultActiveExpiryDays: number | '';
  userLimit: number | '';
}

export const INFO_FIELDS = ['address', 'city', 'state', 'zip', 'phone', 'email', 'country'] as const;

export function valuesOf(org?: Organization): OrganizationValues {
  return {
    name: org?.name ?? '',
    address: org?.info.address ?? '',
    city: org?.info.city ?? '',
    state: org?.info.state ?? '',
    zip: org?.info.zip ?? '',
    phone: org?.info.phone ?? '',
    email: org?.info.email ?? '',
    country: org?.info.country ?? '',
    adminUserId: org?.adminUserId ?? null,
    defaultActiveExpiryDays: org?.scanGroupSettings.defaultActiveExpiryDays ?? '',
    maxDefaultActiveExpiryDays: org?.scanGroupSettings.maxDefaultActiveExpiryDays ?? '',
    userLimit: org?.userLimit ?? '',
  };
}

/** The fields of `next` that differ from `base`. */
export function editsOf(next: OrganizationValues, base: OrganizationValues): Partial<OrganizationValues> {
  const out: Partial<OrganizationValues> = {};
  for (const k of Object.keys(next) as Array<keyof OrganizationValues>)
    if (next[k] !== base[k]) Object.assign(out, { [k]: next[k] });
  return out;
}

const num = (v: number | '') => (v === '' ? undefined : v);

/** The fields that differ from `org` (all of them for a new one), shaped as the API takes them. */
export function changesOf(values: OrganizationValues, org?: Organization): Record<string, unknown> {
  const before = valuesOf(org);
  const out: Record<string, unknown> = {};
  if (values.name.trim() !== before.name) out.name = values.name.trim();
  const info: Record<string, string> = {};
  for (const f of INFO_FIELDS) if (values[f].trim() !== before[f]) info[f] = values[f].trim();
  if (Object.keys(info).length) out.info = { ...org?.info, ...info };
  if (values.adminUserId !== before.adminUserId) out.adminUserId = values.adminUserId;
  const settings: Record<string, number> = {};
  const def = num(values.defaultActiveExpiryDays);
  const max = num(values.maxDefaultActiveExpiryDays);
  if (def !== num(before.defaultActiveExpiryDays) && def !== undefined)
    settings.defaultActiveExpiryDays = def;
  if (max !== num(before.maxDefaultActiveExpiryDays) && max !== undefined)
    settings.maxDefaultActiveExpiryDays = max;
  if (Object.keys(settings).length) out.scanGroupSettings = { ...org?.scanGroupSettings, ...settings };
  const limit = values.userLimit === '' ? null : values.userLimit;
  if (limit !== (before.userLimit === '' ? null : before.userLimit)) out.userLimit = limit;
  return out;
}

/** The ability field each form field maps to (src/access rules judge leaf fields). */
export const FIELD_OF: Record<keyof OrganizationValues, string> = {
  name: 'name',
  address: 'info.address',
  city: 'info.city',
  state: 'info.state',
  zip: 'info.zip',
  phone: 'info.phone',
  email: 'info.email',
  country: 'info.country',
  adminUserId: 'adminUserId',
  defaultActiveExpiryDays: 'scanGroupSettings.defaultActiveExpiryDays',
  maxDefaultActiveExpiryDays: 'scanGroupSettings.maxDefaultActiveExpiryDays',
  userLimit: 'userLimit',
};

const LABELS: Record<(typeof INFO_FIELDS)[number], string> = {
  address: 'Address',
  city: 'City',
  state: 'State',
  zip: 'Zip',
  phone: 'Phone',
  email: 'E-mail',
  country: 'Country',
};

export function OrganizationFields({
  values,
  onChange,
  deny,
  adminCandidates,
  numberOfUsers,
  showName = true,
}: {
  values: OrganizationValues;
  onChange(next: OrganizationValues): void;
  deny(field: string): string | undefined;
  /** Users who may be the administrator; absent hides the field (a new organization has none). */
  adminCandidates?: Array<{ value: string; label: string }>;
  numberOfUsers?: number;
  showName?: boolean;
}) {
  const set = <K extends keyof OrganizationValues>(k: K, v: OrganizationValues[K]) =>
    onChange({ ...values, [k]: v });
  const text = (k: (keyof OrganizationValues & (typeof INFO_FIELDS)[number]) | 'name', label: string) => {
    const reason = deny(FIELD_OF[k]);
    return (
      <DeniedTooltip reason={reason} block>
        <TextInput
          label={label}
          value={values[k]}
          disabled={!!reason}
          required={k === 'name'}
          maxLength={k === 'zip' ? 20 : k === 'phone' ? 40 : 200}
          onChange={(e) => set(k, e.currentTarget.value)}
          w="100%"
        />
      </DeniedTooltip>
    );
  };
  const number = (
    k: 'defaultActiveExpiryDays' | 'maxDefaultActiveExpiryDays' | 'userLimit',
    label: string,
    description?: string,
  ) => {
    const reason = deny(FIELD_OF[k]);
    return (
      <DeniedTooltip reason={reason} block>
        <NumberInput
          label={label}
          description={description}
          value={values[k]}
          disabled={!!reason}
          min={0}
          max={k === 'userLimit' ? 1_000_000 : 3650}
          allowDecimal={false}
          allowNegative={false}
          onChange={(v) => set(k, typeof v === 'number' ? v : '')}
          w="100%"
        />
      </DeniedTooltip>
    );
  };
  const adminReason = deny('adminUserId');
  return (
    <Grid gap="sm">
      {showName && <Grid.Col span={12}>{text('name', 'Name')}</Grid.Col>}
      <Grid.Col span={12}>{text('address', LABELS.address)}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>{text('city', LABELS.city)}</Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3 }}>{text('state', LABELS.state)}</Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3 }}>{text('zip', LABELS.zip)}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>{text('phone', LABELS.phone)}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>{text('email', LABELS.email)}</Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>{text('country', LABELS.country)}</Grid.Col>
      {adminCandidates && (
        <Grid.Col span={12}>
          <DeniedTooltip reason={adminReason} block>
            <Select
              label="Administrator"
              data={adminCandidates}
              value={values.adminUserId}
              onChange={(v) => set('adminUserId', v)}
              disabled={!!adminReason}
              clearable
              searchable
              nothingFoundMessage={Misc.noOptions}
              maxDropdownHeight={USER_DROPDOWN_MAX_HEIGHT}
              w="100%"
            />
          </DeniedTooltip>
        </Grid.Col>
      )}
      <Grid.Col span={{ base: 12, sm: 4 }}>
        {number('defaultActiveExpiryDays', 'Default active expiry (days)', 'New slides archive after')}
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        {number('maxDefaultActiveExpiryDays', 'Maximum active expiry (days)', 'Upper bound of the default')}
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        {number('userLimit', 'User limit', 'Empty: no limit')}
        {numberOfUsers !== undefined && (
          <Text size="xs" c="dimmed" mt={4}>
            {values.userLimit !== ''
              ? `${numberOfUsers} of ${values.userLimit} users in use`
              : `${numberOfUsers} user${numberOfUsers === 1 ? '' : 's'}`}
          </Text>
        )}
      </Grid.Col>
    </Grid>
  );
}

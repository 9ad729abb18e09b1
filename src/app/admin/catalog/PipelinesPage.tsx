// /administrator/pipelines (§1, §3): the staining pipelines of the catalogue (name, organ, predictors,
// assigned organizations), from the local mirror; writes go to the API at once.
import { useState } from 'react';
import { MultiSelect, Select, TextInput } from '@mantine/core';
import type { Organ, Pipeline, Predictor } from '../../../api/entities';
import { Misc } from '../../../api/messages';
import { useOrganizations } from '../admin-data';
import { PICKER_MAX_HEIGHT } from '../constants';
import { CatalogEditModal } from './CatalogEditModal';
import { CatalogTable } from './CatalogTable';
import { organLabel, useCatalog, useCatalogWrite } from './catalog-data';

export function PipelinesPage() {
  const pipelines = useCatalog<Pipeline>('pipelines');
  const organs = useCatalog<Organ>('organs') ?? [];
  const predictors = useCatalog<Predictor>('predictors') ?? [];
  const orgs = useOrganizations() ?? [];
  const write = useCatalogWrite('pipelines');
  const [editing, setEditing] = useState<Pipeline | 'new' | null>(null);
  const [form, setForm] = useState({
    name: '',
    organId: null as string | null,
    predictorIds: [] as string[],
    assigneeOrgIds: [] as string[],
  });
  const open = (p: Pipeline | 'new') => {
    setEditing(p);
    setForm(
      p === 'new'
        ? { name: '', organId: null, predictorIds: [], assigneeOrgIds: [] }
        : {
            name: p.name,
            organId: p.organId,
            predictorIds: p.predictorIds,
            assigneeOrgIds: p.assigneeOrgIds,
          },
    );
  };
  const nameOf = <T extends { id: string; name: string }>(list: T[], id: string | null) =>
    list.find((x) => x.id === id)?.name ?? '—';
  return (
    <>
      <CatalogTable<Pipeline>
        type="Pipeline"
        noun="Pipeline"
        rows={pipelines}
        columns={[
          { label: 'Name', render: (p) => p.name },
          { label: 'Organ', render: (p) => nameOf(organs, p.organId) },
          {
            label: 'Predictors',
            render: (p) => p.predictorIds.map((id) => nameOf(predictors, id)).join(', ') || '—',
          },
          {
            label: 'Organizations',
            render: (p) => p.assigneeOrgIds.map((id) => nameOf(orgs, id)).join(', ') || '—',
          },
        ]}
        onCreate={() => open('new')}
        onEdit={open}
        onDelete={(p) => write('DELETE', `/pipelines/${p.id}`)}
      />
      <CatalogEditModal
        title={editing === 'new' ? 'New pipeline' : 'Edit pipeline'}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        canSave={!!form.name.trim()}
        onSave={() =>
          editing === 'new'
            ? write('POST', '/pipelines', { pipeline: form })
            : write('PATCH', `/pipelines/${(editing as Pipeline).id}`, { pipeline: form })
        }
      >
        <TextInput
          label="Name"
          required
          maxLength={100}
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
        />
        <Select
          label="Organ"
          data={organs.map((o) => ({ value: o.id, label: organLabel(o) }))}
          value={form.organId}
          onChange={(v) => setForm({ ...form, organId: v })}
          clearable
          searchable
          nothingFoundMessage={Misc.noOptions}
          maxDropdownHeight={PICKER_MAX_HEIGHT}
        />
        <MultiSelect
          label="Predictors"
          data={predictors.map((p) => ({ value: p.id, label: p.title ? `${p.name} — ${p.title}` : p.name }))}
          value={form.predictorIds}
          onChange={(v) => setForm({ ...form, predictorIds: v })}
          searchable
          nothingFoundMessage={Misc.noOptions}
          maxDropdownHeight={PICKER_MAX_HEIGHT}
        />
        <MultiSelect
          label="Assigned organizations"
          data={orgs.map((o) => ({ value: o.id, label: o.name }))}
          value={form.assigneeOrgIds}
          onChange={(v) => setForm({ ...form, assigneeOrgIds: v })}
          searchable
          nothingFoundMessage={Misc.noOptions}
          maxDropdownHeight={PICKER_MAX_HEIGHT}
        />
      </CatalogEditModal>
    </>
  );
}

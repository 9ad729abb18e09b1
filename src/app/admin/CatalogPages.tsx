// The catalogue platform administrators manage (§1, §3): organs (name, animal), pipelines (name,
// organ, predictors, assigned organizations) and predictors (the assay fields of §3). Lists come
// from the local mirror; creates, edits and deletions go to the API at once so a refusal (a
// duplicate organ, an organ still in use) is shown right there. Every control follows the abilities.
import { useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import { asSubject, denialMessage, type SubjectType } from '../../access';
import type { Organ, Pipeline, Predictor } from '../../api/entities';
import { Misc, extractMessage } from '../../api/messages';
import type { SyncKind } from '../../api/sync';
import { readRows } from '../../local/read';
import { api } from '../lib/api';
import { formatDate } from '../lib/format';
import { useAbility } from '../session/ability';
import { useSync } from '../sync/context';
import { useLocalQuery } from '../sync/hooks';
import { useOrganizations } from './admin-data';
import { AdminListHeader, AdminTable, RowAction, type AdminColumn } from './AdminTable';
import { ORGANIZATION_MODAL_WIDTH, PICKER_MAX_HEIGHT } from './constants';

function useCatalog<T>(kind: SyncKind): T[] | undefined {
  return useLocalQuery(kind, ['catalog'], (db) => readRows<T>(db, kind, { orderBy: 'name' })).data;
}

/** Sends a catalogue write and pulls the kind; the error, if any, is returned for the form. */
function useCatalogWrite(kind: SyncKind) {
  const { engine } = useSync();
  return async (
    method: 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<string | undefined> => {
    try {
      await api(method, path, body === undefined ? {} : { body });
      void engine?.pull([kind], true);
      return undefined;
    } catch (e) {
      return extractMessage(e);
    }
  };
}

/** A catalogue list: New button, rows with Edit and Delete, each guarded by the abilities. */
function CatalogTable<T extends { id: string }>({
  type,
  rows,
  columns,
  onCreate,
  onEdit,
  onDelete,
  noun,
}: {
  type: SubjectType;
  rows?: T[];
  columns: AdminColumn<T>[];
  onCreate(): void;
  onEdit(row: T): void;
  onDelete(row: T): Promise<string | undefined>;
  noun: string;
}) {
  const { ability } = useAbility();
  const [error, setError] = useState<string>();
  return (
    <Stack gap="md">
      <AdminListHeader
        caption={rows ? `${rows.length} ${noun.toLowerCase()}${rows.length === 1 ? '' : 's'}` : ''}
        action={`New ${noun.toLowerCase()}`}
        deniedReason={denialMessage(ability, 'create', type)}
        onAction={onCreate}
      />
      {error && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setError(undefined)}>
          {error}
        </Alert>
      )}
      <AdminTable
        rows={rows}
        minWidth={640}
        columns={columns}
        actions={(row) => {
          const subject = asSubject(type, row as never);
          return (
            <>
              <RowAction
                label="Edit"
                deniedReason={denialMessage(ability, 'update', subject)}
                onClick={() => onEdit(row)}
              />
              <RowAction
                label="Delete"
                color="red"
                deniedReason={denialMessage(ability, 'delete', subject)}
                onClick={() => void onDelete(row).then(setError)}
              />
            </>
          );
        }}
      />
    </Stack>
  );
}

/** A modal form: fields, the server's refusal in red, Cancel and Save. */
function EditModal({
  title,
  opened,
  onClose,
  onSave,
  canSave,
  children,
}: {
  title: string;
  opened: boolean;
  onClose(): void;
  onSave(): Promise<string | undefined>;
  canSave: boolean;
  children: ReactNode;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    const failed = await onSave();
    setBusy(false);
    setError(failed);
    if (!failed) onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={ORGANIZATION_MODAL_WIDTH}>
      <Stack gap="sm">
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={busy} disabled={!canSave} onClick={() => void save()}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

// ---- Organs -----------------------------------------------------------------------------------

export function OrgansPage() {
  const organs = useCatalog<Organ>('organs');
  const write = useCatalogWrite('organs');
  const [editing, setEditing] = useState<Organ | 'new' | null>(null);
  const [name, setName] = useState('');
  const [animal, setAnimal] = useState('');
  const open = (o: Organ | 'new') => {
    setEditing(o);
    setName(o === 'new' ? '' : o.name);
    setAnimal(o === 'new' ? '' : o.animal);
  };
  return (
    <>
      <CatalogTable<Organ>
        type="Organ"
        noun="Organ"
        rows={organs}
        columns={[
          { label: 'Name', render: (o) => o.name },
          { label: 'Animal', render: (o) => o.animal },
          { label: 'Created', render: (o) => formatDate(o.createdAt) },
        ]}
        onCreate={() => open('new')}
        onEdit={open}
        onDelete={(o) => write('DELETE', `/organs/${o.id}`)}
      />
      <EditModal
        title={editing === 'new' ? 'New organ' : 'Edit organ'}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        canSave={!!name.trim() && !!animal.trim()}
        onSave={() =>
          editing === 'new'
            ? write('POST', '/organs', { organ: { name, animal } })
            : write('PATCH', `/organs/${(editing as Organ).id}`, { organ: { name, animal } })
        }
      >
        <TextInput
          label="Animal"
          required
          maxLength={50}
          value={animal}
          onChange={(e) => setAnimal(e.currentTarget.value)}
        />
        <TextInput
          label="Name"
          required
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
      </EditModal>
    </>
  );
}

const organLabel = (o: Organ) => `${o.name} (${o.animal})`;

// ---- Pipelines --------------------------------------------------------------------------------

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
      <EditModal
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
      </EditModal>
    </>
  );
}

// ---- Predictors (assays) ----------------------------------------------------------------------

interface PredictorForm {
  name: string;
  title: string;
  version: string;
  organId: string | null;
  scanType: string | null;
  mediaType: string;
  inputPixelScale: number | '';
  outputPixelScale: number | '';
  inputDataType: string;
  outputDataType: string;
  outputTileOverlap: number | '';
}

const emptyPredictor: PredictorForm = {
  name: '',
  title: '',
  version: '',
  organId: null,
  scanType: null,
  mediaType: '',
  inputPixelScale: '',
  outputPixelScale: '',
  inputDataType: '',
  outputDataType: '',
  outputTileOverlap: '',
};

function predictorBody(f: PredictorForm) {
  const text = (v: string) => (v.trim() ? v.trim() : null);
  const num = (v: number | '') => (v === '' ? null : v);
  return {
    name: f.name.trim(),
    title: f.title.trim(),
    version: f.version.trim(),
    organId: f.organId,
    scanType: f.scanType,
    mediaType: text(f.mediaType),
    inputPixelScale: num(f.inputPixelScale),
    outputPixelScale: num(f.outputPixelScale),
    inputDataType: text(f.inputDataType),
    outputDataType: text(f.outputDataType),
    outputTileOverlap: num(f.outputTileOverlap),
  };
}

export function PredictorsPage() {
  const predictors = useCatalog<Predictor>('predictors');
  const organs = useCatalog<Organ>('organs') ?? [];
  const write = useCatalogWrite('predictors');
  const [editing, setEditing] = useState<Predictor | 'new' | null>(null);
  const [f, setF] = useState<PredictorForm>(emptyPredictor);
  const open = (p: Predictor | 'new') => {
    setEditing(p);
    setF(
      p === 'new'
        ? emptyPredictor
        : {
            name: p.name,
            title: p.title,
            version: p.version,
            organId: p.organId,
            scanType: p.scanType,
            mediaType: p.mediaType ?? '',
            inputPixelScale: p.inputPixelScale ?? '',
            outputPixelScale: p.outputPixelScale ?? '',
            inputDataType: p.inputDataType ?? '',
            outputDataType: p.outputDataType ?? '',
            outputTileOverlap: p.outputTileOverlap ?? '',
          },
    );
  };
  const text = (
    k: 'name' | 'title' | 'version' | 'mediaType' | 'inputDataType' | 'outputDataType',
    label: string,
    max: number,
  ) => (
    <TextInput
      label={label}
      required={k === 'name'}
      maxLength={max}
      value={f[k]}
      onChange={(e) => setF({ ...f, [k]: e.currentTarget.value })}
    />
  );
  const num = (k: 'inputPixelScale' | 'outputPixelScale' | 'outputTileOverlap', label: string) => (
    <NumberInput
      label={label}
      value={f[k]}
      min={0}
      allowNegative={false}
      allowDecimal={k !== 'outputTileOverlap'}
      onChange={(v) => setF({ ...f, [k]: typeof v === 'number' ? v : '' })}
    />
  );
  return (
    <>
      <CatalogTable<Predictor>
        type="Predictor"
        noun="Predictor"
        rows={predictors}
        columns={[
          { label: 'Name', render: (p) => p.name },
          { label: 'Title', render: (p) => p.title || '—' },
          { label: 'Version', render: (p) => p.version || '—' },
          { label: 'Organ', render: (p) => organs.find((o) => o.id === p.organId)?.name ?? '—' },
          { label: 'Scan type', render: (p) => p.scanType ?? '—' },
          { label: 'Status', render: (p) => p.status },
        ]}
        onCreate={() => open('new')}
        onEdit={open}
        onDelete={(p) => write('DELETE', `/predictors/${p.id}`)}
      />
      <EditModal
        title={editing === 'new' ? 'New predictor' : 'Edit predictor'}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        canSave={!!f.name.trim()}
        onSave={() =>
          editing === 'new'
            ? write('POST', '/predictors', { predictor: predictorBody(f) })
            : write('PATCH', `/predictors/${(editing as Predictor).id}`, { predictor: predictorBody(f) })
        }
      >
        {text('name', 'Name', 100)}
        <Group grow>
          {text('title', 'Title', 200)}
          {text('version', 'Version', 50)}
        </Group>
        <Group grow>
          <Select
            label="Organ"
            data={organs.map((o) => ({ value: o.id, label: organLabel(o) }))}
            value={f.organId}
            onChange={(v) => setF({ ...f, organId: v })}
            clearable
            searchable
            nothingFoundMessage={Misc.noOptions}
            maxDropdownHeight={PICKER_MAX_HEIGHT}
          />
          <Select
            label="Scan type"
            data={['brightfield', 'autofluorescence']}
            value={f.scanType}
            onChange={(v) => setF({ ...f, scanType: v })}
            clearable
          />
        </Group>
        {text('mediaType', 'Media type', 100)}
        <Group grow>
          {num('inputPixelScale', 'Input pixel scale')}
          {num('outputPixelScale', 'Output pixel scale')}
        </Group>
        <Group grow>
          {text('inputDataType', 'Input data type', 50)}
          {text('outputDataType', 'Output data type', 50)}
        </Group>
        {num('outputTileOverlap', 'Output tile overlap')}
      </EditModal>
    </>
  );
}

// /administrator/predictors (§1, §3): the predictors (assays) of the catalogue with the assay fields
// of §3, from the local mirror; writes go to the API at once.
import { useState } from 'react';
import { Group, NumberInput, Select, TextInput } from '@mantine/core';
import type { Organ, Predictor } from '../../../api/entities';
import { Misc } from '../../../api/messages';
import { PICKER_MAX_HEIGHT } from '../constants';
import { CatalogEditModal } from './CatalogEditModal';
import { CatalogTable } from './CatalogTable';
import { organLabel, useCatalog, useCatalogWrite } from './catalog-data';

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
      <CatalogEditModal
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
      </CatalogEditModal>
    </>
  );
}

// /administrator/organs (§1, §3): the organs of the catalogue (name, animal), from the local mirror;
// creates, edits and deletions go to the API at once so a refusal (a duplicate organ, an organ still
// in use) is shown right there.
import { useState } from 'react';
import { TextInput } from '@mantine/core';
import type { Organ } from '../../../api/entities';
import { formatDate } from '../../lib/format';
import { CatalogEditModal } from './CatalogEditModal';
import { CatalogTable } from './CatalogTable';
import { useCatalog, useCatalogWrite } from './catalog-data';

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
      <CatalogEditModal
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
      </CatalogEditModal>
    </>
  );
}

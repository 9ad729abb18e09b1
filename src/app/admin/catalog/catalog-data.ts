// The catalogue's data for its pages: rows of a kind from the local mirror, sorted by name, and a
// write that goes to the API at once (so a refusal shows in the form) and then pulls the kind.
import type { Organ } from '../../../api/entities';
import { extractMessage } from '../../../api/messages';
import type { SyncKind } from '../../../api/sync';
import { readRows } from '../../../local/read';
import { api } from '../../lib/api';
import { useSync } from '../../sync/context';
import { useLocalQuery } from '../../sync/hooks';

export function useCatalog<T>(kind: SyncKind): T[] | undefined {
  return useLocalQuery(kind, ['catalog'], (db) => readRows<T>(db, kind, { orderBy: 'name' })).data;
}

/** Sends a catalogue write and pulls the kind; the error, if any, is returned for the form. */
export function useCatalogWrite(kind: SyncKind) {
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

/** An organ as the pickers name it: its name and animal. */
export const organLabel = (o: Organ) => `${o.name} (${o.animal})`;

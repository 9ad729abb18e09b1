// Keeps the other kinds a page reads from the local store pulled at their §9 interval: a page's main
// query pulls its own kind; this one pulls the kinds its rows refer to (organs, images, orders...).
import type { SyncKind } from '../../api/sync';
import { countRows } from '../../local/read';
import { useLocalQuery } from '../sync/hooks';

export function useFresh(...kinds: SyncKind[]): void {
  for (const kind of kinds) {
    // The number of hooks is fixed per page (the kinds are literals at the call site).
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useLocalQuery(kind, ['fresh'], (db) => countRows(db, kind));
  }
}

// The entry of a child started by ts-child.test.ts: it forks one more of itself the same way (the
// environment marks the second), sends that grandchild's pid, and both would run forever on their
// own, so only ts-entry.mjs's exit on a closed IPC channel ends the grandchild.
import { tsChild } from '../../src/server/children/ts-child';

if (!process.env.TESSERA_CHILD_TREE_LEAF) {
  process.env.TESSERA_CHILD_TREE_LEAF = '1';
  const leaf = tsChild(new URL(import.meta.url));
  leaf.once('spawn', () => process.send!({ grandchild: leaf.pid }));
}
setInterval(() => {}, 60_000);

// What `zod` resolves to in the browser bundles (vite.config.ts): Zod itself, loaded after
// zod-jitless.ts has turned its eval probe off. Module order makes that hold in every chunk.
import './zod-jitless';

export * from 'zod/v4';
export { z, default } from 'zod/v4';

// Turns off Zod's eval probe before Zod is evaluated, for the browser bundles (the app, the upload
// worker, the service worker): they run under a Content-Security-Policy without 'unsafe-eval', where
// the probe's caught `new Function` is still reported as a violation. Zod reads this object when it
// loads, and builds every object schema with it, so it must be set before any schema module runs.
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };

export {};

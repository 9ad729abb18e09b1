// Lint rules, including the import direction of DESIGN.md's table (STYLE §1), checked by a small
// local rule that resolves each relative import to the top folder it lands in.
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** What each folder may import of ours (DESIGN.md "may import"); tests and bench may import anything. */
const allowed = {
  'src/api': [],
  'src/access': ['src/api'],
  'src/server': ['src/api', 'src/access'],
  'src/local': ['src/api'],
  'src/workers': ['src/api', 'src/local'],
  'src/app': ['src/api', 'src/access', 'src/local', 'src/workers'],
  sw: ['src/api', 'src/local'],
};
const areas = Object.keys(allowed);
const root = import.meta.dirname;
const areaOf = (file) => {
  const rel = path.relative(root, file).split(path.sep).join('/');
  return areas.find((a) => rel === a || rel.startsWith(`${a}/`));
};

const importDirection = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const from = areaOf(context.filename);
    if (!from) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string') return;
      if (spec === 'dexie' || spec.startsWith('dexie/') || spec.startsWith('dexie-')) {
        if (from !== 'src/local')
          context.report({
            node,
            message: `Only src/local touches Dexie (STYLE §1); ${from} imports ${spec}.`,
          });
        return;
      }
      if (!spec.startsWith('.')) return;
      const to = areaOf(path.resolve(path.dirname(context.filename), spec));
      if (to && to !== from && !allowed[from].includes(to))
        context.report({ node, message: `${from} may not import ${to} (DESIGN.md import table).` });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/**
 * Server folders that import each other (DESIGN.md: each part has one owner). A folder A may import a
 * sibling B only when B imports nothing of A; what both need belongs in a folder of its own. The rule
 * reads the sibling's files itself, since ESLint sees one file at a time.
 */
const serverRoot = path.join(root, 'src/server');
const serverFolderOf = (file) => {
  const rel = path.relative(serverRoot, file).split(path.sep);
  return rel.length > 1 && rel[0] !== '..' ? rel[0] : undefined;
};
const importPattern = /(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g;
const folderImports = new Map();
function importsOfFolder(folder) {
  if (!folderImports.has(folder)) {
    const out = new Set();
    const dir = path.join(serverRoot, folder);
    for (const rel of fs.readdirSync(dir, { recursive: true })) {
      if (!/\.tsx?$/.test(rel)) continue;
      const file = path.join(dir, rel);
      for (const m of fs.readFileSync(file, 'utf8').matchAll(importPattern)) {
        const to = serverFolderOf(path.resolve(path.dirname(file), m[1]));
        if (to && to !== folder) out.add(to);
      }
    }
    folderImports.set(folder, out);
  }
  return folderImports.get(folder);
}
const serverFolderCycles = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const from = serverFolderOf(context.filename);
    if (!from) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = serverFolderOf(path.resolve(path.dirname(context.filename), spec));
      if (!to || to === from) return;
      if (importsOfFolder(to).has(from))
        context.report({
          node,
          message: `src/server/${from} and src/server/${to} import each other: move what both need to a folder of its own.`,
        });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'data',
      'test-results',
      'playwright-report',
      'src/app/routeTree.gen.ts',
      'dev-dist',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: {
      'react-hooks': reactHooks,
      tessera: { rules: { 'import-direction': importDirection, 'server-folder-cycles': serverFolderCycles } },
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'tessera/import-direction': 'error',
      'tessera/server-folder-cycles': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Route files write through their resource's repository, so each table's writes live in one place.
    // Drizzle handles are named db or tx (app.ctx.db, this.db); app.delete( declares a route and
    // hash.update( is no write, so only calls on those names are caught. The catalogue and order route
    // plugins are named for their resource, so they are listed one by one.
    files: [
      'src/server/**/*routes*.ts',
      'src/server/**/*-route.ts',
      'src/server/catalog/organs.ts',
      'src/server/catalog/pipelines.ts',
      'src/server/catalog/predictors.ts',
      'src/server/orders/scan-orders.ts',
      'src/server/orders/scan-order-lists.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'CallExpression[callee.property.name=/^(insert|update|delete)$/][callee.object.name=/^(db|tx)$/]',
          'CallExpression[callee.property.name=/^(insert|update|delete)$/][callee.object.property.name=/^(db|tx)$/]',
        ].map((selector) => ({
          selector,
          message:
            "Write through the resource's repository (src/server/<resource>/repository.ts): a named function taking the db or transaction handle.",
        })),
      ],
    },
  },
);

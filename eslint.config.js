// Lint rules, including the import direction of DESIGN.md's table (STYLE §1), checked by a small
// local rule that resolves each relative import to the top folder it lands in.
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
    plugins: { 'react-hooks': reactHooks, tessera: { rules: { 'import-direction': importDirection } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'tessera/import-direction': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
);

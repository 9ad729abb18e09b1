// The format descriptors are the one place a slide extension is written: the picker, the upload plan,
// the reader registry and docs/formats.md follow them, and no other source file spells an extension.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS_DOC, withCurrentTable } from '../../docs/formats-table';
import {
  ACCEPT_ATTRIBUTE,
  PICKER_TEXT,
  SLIDE_EXTENSIONS,
  SLIDE_FORMATS,
  slideFileRole,
} from '../../src/api/slide-formats';
import { FORMATS } from '../../src/server/slides/registry';
import { planUploads } from '../../src/workers/plan';

const root = path.resolve(import.meta.dirname, '../..');
/** Source text without its comment lines: a comment may name an extension, code may not. */
const codeOf = (source: string) =>
  source
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l))
    .join('\n');
const extensionsIn = (text: string) => new Set(text.match(/\.[a-z][a-z0-9]+\b/g));

describe('slide format descriptors', () => {
  it('docs/formats.md holds the table the descriptors make (npm run docs:formats)', () => {
    const doc = fs.readFileSync(FORMATS_DOC, 'utf8');
    expect(doc).toBe(withCurrentTable(doc));
  });

  it('every descriptor has its reader, in the same order', () => {
    expect(FORMATS.map((r) => r.format)).toEqual(SLIDE_FORMATS.map((d) => d.format));
  });

  it('the picker accepts and names exactly the descriptors’ extensions', () => {
    expect(ACCEPT_ATTRIBUTE.split(',').sort()).toEqual([...SLIDE_EXTENSIONS].sort());
    expect([...extensionsIn(PICKER_TEXT)].sort()).toEqual([...SLIDE_EXTENSIONS].sort());
  });

  it('the docs table names exactly the descriptors’ extensions', () => {
    const doc = fs.readFileSync(FORMATS_DOC, 'utf8');
    const files = doc
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => l.split('|')[3]);
    const folders = SLIDE_FORMATS.flatMap((f) => ('folder' in f ? f.folder.extensions : []));
    const named = new Set(files.flatMap((f) => [...extensionsIn(f)]));
    expect([...named].sort()).toEqual([...new Set([...SLIDE_EXTENSIONS, ...folders])].sort());
  });

  it('the upload plan takes a file of every extension and refuses others', () => {
    for (const d of SLIDE_FORMATS) {
      const main = { name: `s${d.extensions[0]}`, size: 1, relativePath: `s${d.extensions[0]}` };
      const data =
        'folder' in d
          ? d.folder.extensions.map((e) => ({ name: `x${e}`, size: 1, relativePath: `s/x${e}` }))
          : [];
      const [plan] = planUploads([main, ...data]);
      expect(plan.refused).toBeUndefined();
      expect(plan.parts).toHaveLength(1 + data.length);
      expect(slideFileRole(main.name)).toBe('folder' in d ? 'folderMain' : 'single');
    }
    expect(planUploads([{ name: 'a.svs', size: 1, relativePath: 'a.svs' }])[0].refused).toBeDefined();
  });

  it('no source file outside the descriptors and the readers spells a slide extension', () => {
    const quoted = new RegExp(`['"\`](${SLIDE_EXTENSIONS.map((e) => `\\${e}`).join('|')})['"\`]`);
    const allowed = new Set(['src/api/slide-formats.ts']);
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const rel = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(rel);
        else if (/\.tsx?$/.test(entry.name) && !allowed.has(rel) && !rel.startsWith('src/server/slides/'))
          if (quoted.test(codeOf(fs.readFileSync(path.join(root, rel), 'utf8')))) offenders.push(rel);
      }
    };
    walk('src');
    walk('sw');
    expect(offenders).toEqual([]);
  });
});

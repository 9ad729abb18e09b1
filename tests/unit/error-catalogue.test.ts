// The error catalogue (src/api/errors.ts) held against the code, the docs and the spec, as fastify's
// test/internals/errors.test.js holds lib/errors.js: every entry is documented in docs/api.md, named
// somewhere in src, and has a sane status; the spec's error texts (§5, §8) are entries verbatim and
// its other texts live in src/api; no route builds an error from a text of its own.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_DOC, withCurrentTable } from '../../docs/errors-table';
import {
  ERRORS,
  catalogueText,
  errorAnswer,
  errorTemplate,
  errorText,
  recogniseError,
  type ErrorCode,
} from '../../src/api/errors';

const ROOT = path.resolve(__dirname, '../..');
const NAMES = Object.keys(ERRORS) as ErrorCode[];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.gen.ts') ? [full] : [];
  });
}
const SOURCES = sourceFiles(path.join(ROOT, 'src')).map((file) => ({
  file: path.relative(ROOT, file),
  text: fs.readFileSync(file, 'utf8'),
}));

/** Spec §5 and §8: the texts of errors the API answers, verbatim. */
const SPEC_API_ERRORS = [
  'This tag already exists',
  'The study already has this scan group.',
  'You do not have permission to request a review',
  'You do not have permission to create a study',
  'You cannot delete your own organization',
  'You cannot delete yourself',
  'You can only create scan groups for yourself',
  'You can only create scan orders for yourself',
  'You can only create reviews for yourself',
  'You can only create annotations for yourself',
  'You can only create studies for yourself',
  'You can only create images for yourself',
  'You can only download active images',
  'You can only upload active images',
  'You can only update status of active images',
  'You can only update display status of active images',
  'User is not logged in',
  'Incompatible File Format',
];

/** Spec §5 and §8: texts the app shows that no API answer carries (hints, toasts, labels), verbatim. */
const SPEC_APP_TEXTS = [
  'Message needs to at least 1 characters long',
  'Study has not avaliable slide (image)',
  'Image is not ready to download',
  'Select an animal first',
  'Please contact your organization administrator to request access.',
  'There are not organizations available to you',
  'Warning your internet speed is below a recommended 1Mb/s. Please consider upgrading your internet speed.',
  'An unknown error occurred',
  'Your report has been submitted',
  'We are unable to refresh your token. Please log in again.',
  'Creating Study',
  'Study Created',
  'Error creating study',
  'Requesting review...',
  'Review Requested',
  '{names} received your review request.',
  'Error',
  'Sharing study...',
  'Removing organization...',
  'Removing member...',
  'Deleting study...',
  'Sharing image...',
  'Study Shared',
  'Organization Removed',
  'Member Removed',
  'Study {name} Deleted',
  'Image Shared',
  'Slide Removed from Study',
  'Images Replicated',
  'Error sharing study',
  'Error removing organization',
  'Error removing member',
  'Failed to delete study',
  'Error sharing image',
  'Failed to delete slide',
  'Failed to replicate images',
  'Failed to archive slide',
  'Failed to active archived slide',
  'Failed to update the study name',
  'Failed to remove the slide',
  'Invalid file',
  'Invalid channel value. Please make sure the channels are specified correctly.',
  'Upload Incomplete',
  'No Label Associated',
  'Canceled',
  'Upload Failed: The slide label for an image could not be read.',
  'Email not available',
  'Email copied!',
  'Images not found',
  'Unavailable User',
  'Image is not available',
  'Results Not Found',
  'No options',
  'Are you sure you want to remove this user from the study?',
  'Are you sure you want to remove this organization from the study?',
  'No QueryClient set, use QueryClientProvider to set one',
];

/**
 * Where an error may be built from a text of its own (new HttpError): only the module that builds the
 * catalogue's errors, src/access's denials and tus's protocol answers. Every route names an entry.
 */
const FREE_TEXT_ALLOWED = ['src/server/http/errors.ts'];

describe('error catalogue', () => {
  it('gives every entry an error status and, when it has one, a code in capitals', () => {
    for (const name of NAMES) {
      const { status, code } = errorAnswer(name);
      expect(status, name).toBeGreaterThanOrEqual(400);
      expect(status, name).toBeLessThan(600);
      expect(name).toMatch(/^[A-Z][A-Z0-9_]+$/);
      if (code !== undefined) expect(code, name).toMatch(/^[A-Z][A-Z0-9_]+$/);
    }
  });

  it('is documented in docs/api.md, table up to date (npm run docs:errors)', () => {
    const doc = fs.readFileSync(API_DOC, 'utf8');
    expect(withCurrentTable(doc)).toBe(doc);
    for (const name of NAMES) expect(doc, name).toContain(`| \`${name}\` | ${errorAnswer(name).status} |`);
  });

  it('names every entry somewhere in src', () => {
    const unused = NAMES.filter(
      (name) => !SOURCES.some((s) => s.file !== 'src/api/errors.ts' && s.text.includes(`'${name}'`)),
    );
    expect(unused).toEqual([]);
  });

  it('tells entries apart: no two share status, code and template', () => {
    const keys = NAMES.map((name) => {
      const { status, code } = errorAnswer(name);
      return `${status} ${code} ${errorTemplate(name)}`;
    });
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('holds the spec error texts (§5, §8) verbatim', () => {
    const texts = NAMES.map((name) => errorTemplate(name).replace(/^\{field\}: /, ''));
    for (const text of SPEC_API_ERRORS) expect(texts, text).toContain(text);
  });

  it('keeps the spec texts that are not API errors in src/api', () => {
    const api = SOURCES.filter((s) => s.file.startsWith('src/api/')).map((s) => s.text);
    for (const text of SPEC_APP_TEXTS) {
      const written = text.replace(/\{(\w+)\}/g, '${$1}');
      const quoted = [`'${written}'`, `"${written}"`, `\`${written}\``];
      expect(
        api.some((source) => quoted.some((q) => source.includes(q))),
        text,
      ).toBe(true);
    }
  });

  it('builds no error from a text of its own outside the folders not yet converted', () => {
    const offenders = SOURCES.filter(
      (s) =>
        s.file.startsWith('src/server/') &&
        !FREE_TEXT_ALLOWED.some((allowed) => s.file.startsWith(allowed)) &&
        /\b(badRequest|conflict|forbidden)\(|new HttpError\(/.test(s.text),
    ).map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  it('recognises each entry from its answer, as the app does', () => {
    const sample = new Proxy({}, { get: (_, key) => `x-${String(key)}` });
    for (const name of NAMES) {
      const { status, code } = errorAnswer(name);
      const message = (errorText as (n: ErrorCode, p: unknown) => string)(name, sample);
      expect(recogniseError(status, code, message), name).toBe(name);
    }
    expect(recogniseError(409, 'CONFLICT', errorText('TAG_EXISTS'))).toBe('TAG_EXISTS');
    expect(recogniseError(400, 'BAD_REQUEST', 'body.x: something else')).toBeUndefined();
  });

  it("shows the catalogue's text for an entry of fixed text, the answer's own otherwise", () => {
    expect(catalogueText(409, 'EMAIL_TAKEN', 'taken')).toBe(errorText('EMAIL_TAKEN'));
    const limit = errorText('USER_LIMIT', { limit: 3 });
    expect(catalogueText(403, 'USER_LIMIT', limit)).toBe(limit);
    expect(catalogueText(418, undefined, 'teapot')).toBe('teapot');
  });
});

// An annotation's class in its content (QuPath's classification) and the list's colours.
import { describe, expect, it } from 'vitest';
import {
  classNamed,
  hexToRgb,
  rgbToHex,
  withClassification,
  type AnnotationClass,
} from '../../../src/api/annotation-classes';
import { classificationOfContent } from '../../../src/api/annotation-geojson';

const region = {
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [1, 2] },
  properties: { text: 'note' },
};
const listed = (name: string, color: string): AnnotationClass => ({
  id: name,
  organizationId: 'org',
  name,
  color,
  creatorUserId: null,
  createdAt: '',
  updatedAt: '',
});

describe('annotation classes', () => {
  it('sets, replaces and removes the class of a region, keeping its note and geometry', () => {
    const classified = withClassification(region, { name: 'Tumor', color: '#c83232' });
    expect(classified).toEqual({
      ...region,
      properties: { text: 'note', classification: { name: 'Tumor', color: [200, 50, 50] } },
    });
    expect(classificationOfContent(classified)).toEqual({ name: 'Tumor', color: [200, 50, 50] });
    const other = withClassification(classified, { name: 'Stroma', color: '#00ff00' });
    expect(classificationOfContent(other)?.name).toBe('Stroma');
    expect(withClassification(other, null)).toEqual(region);
    // A plain note has no place for a class.
    expect(withClassification({ text: 'x' }, { name: 'Tumor', color: '#000000' })).toEqual({ text: 'x' });
  });

  it('finds a class by name whatever its case; colours convert both ways', () => {
    const classes = [listed('Tumor', '#c83232')];
    expect(classNamed(classes, 'tumor')?.color).toBe('#c83232');
    expect(classNamed(classes, 'Stroma')).toBeUndefined();
    expect(classNamed(undefined, 'Tumor')).toBeUndefined();
    expect(hexToRgb('#0a0b0c')).toEqual([10, 11, 12]);
    expect(rgbToHex([10, 11, 12])).toBe('#0a0b0c');
  });
});

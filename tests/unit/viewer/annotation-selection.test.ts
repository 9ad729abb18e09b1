// The selection shared by the slide and the Annotations panel: one per image, told to subscribers.
import { describe, expect, it, vi } from 'vitest';
import {
  annotationSelection,
  clearAnnotationSelection,
  selectAnnotation,
  subscribeAnnotationSelection,
} from '../../../src/app/viewer/annotations/selection';

describe('annotation selection', () => {
  it('starts empty and keeps one selection per image', () => {
    expect(annotationSelection('img-a').id).toBeUndefined();
    selectAnnotation('img-a', 'ann-1', 'slide');
    selectAnnotation('img-b', 'ann-2', 'list');
    expect(annotationSelection('img-a')).toMatchObject({ id: 'ann-1', source: 'slide' });
    expect(annotationSelection('img-b')).toMatchObject({ id: 'ann-2', source: 'list' });
    clearAnnotationSelection('img-a');
    clearAnnotationSelection('img-b');
  });

  it('returns the same snapshot until the selection changes', () => {
    const empty = annotationSelection('img-c');
    expect(annotationSelection('img-c')).toBe(empty);
    selectAnnotation('img-c', 'ann-1', 'slide');
    const picked = annotationSelection('img-c');
    expect(annotationSelection('img-c')).toBe(picked);
    clearAnnotationSelection('img-c');
    expect(annotationSelection('img-c')).toBe(empty);
  });

  it('counts a second pick of the same annotation as a new one', () => {
    selectAnnotation('img-d', 'ann-1', 'list');
    const first = annotationSelection('img-d').seq;
    selectAnnotation('img-d', 'ann-1', 'list');
    expect(annotationSelection('img-d').seq).toBeGreaterThan(first);
    clearAnnotationSelection('img-d');
  });

  it("tells only the image's subscribers, and not after they leave", () => {
    const onA = vi.fn();
    const onB = vi.fn();
    const leaveA = subscribeAnnotationSelection('img-e', onA);
    const leaveB = subscribeAnnotationSelection('img-f', onB);
    selectAnnotation('img-e', 'ann-1', 'slide');
    expect(onA).toHaveBeenCalledTimes(1);
    expect(onB).not.toHaveBeenCalled();
    clearAnnotationSelection('img-e');
    expect(onA).toHaveBeenCalledTimes(2);
    // Clearing what is already clear changes nothing and tells no one.
    clearAnnotationSelection('img-e');
    expect(onA).toHaveBeenCalledTimes(2);
    leaveA();
    selectAnnotation('img-e', 'ann-2', 'slide');
    expect(onA).toHaveBeenCalledTimes(2);
    leaveB();
    clearAnnotationSelection('img-e');
  });
});

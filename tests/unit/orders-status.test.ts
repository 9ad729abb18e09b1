// What the order pages say: the status an order shows (placed by its active list before the server's
// copy says so), why a failed one failed, and the first reason Place Orders is disabled.
import { describe, expect, it } from 'vitest';
import { Denied } from '../../src/api/messages';
import { failureReason } from '../../src/app/orders/failure-reason';
import { shownStatus } from '../../src/app/orders/orders-local';
import { placeBlock, type PlaceState } from '../../src/app/orders/place-gate';
import { OrdersText } from '../../src/app/orders/texts';

describe('shownStatus', () => {
  it.each([
    ['inactive', undefined, 'inactive'],
    ['inactive', 'inactive', 'inactive'],
    ['inactive', 'active', 'active'],
    ['processing', 'active', 'processing'],
    ['failed', 'processing', 'failed'],
  ] as const)('order %s in a list %s shows %s', (order, list, want) => {
    expect(shownStatus({ status: order }, list ? { status: list } : undefined)).toBe(want);
  });
});

describe('failureReason', () => {
  it('gives the reader message of a failed scan', () => {
    expect(failureReason([{ name: 'a.czi', status: 'failed', info: { desc: 'Not a CZI file' } }])).toBe(
      'The scan a.czi could not be processed: Not a CZI file',
    );
  });
  it('prefers a rejection, with its reason', () => {
    expect(
      failureReason([
        { name: 'a.czi', status: 'failed', info: {} },
        { name: 'b.czi', status: 'rejected', info: { rejection: 'Out of focus' } },
      ]),
    ).toBe('The scan b.czi was rejected: Out of focus');
  });
  it('says something plain when the images are not known here', () => {
    expect(failureReason([])).toBe(OrdersText.failedUnknown);
  });
});

describe('placeBlock', () => {
  const ready: PlaceState = {
    allowed: true,
    studies: 2,
    pipelines: 1,
    slidesChosen: true,
    pipelineChosen: true,
    studyChosen: true,
    expiryOk: true,
    sharers: [],
  };
  it('lets a complete form through', () => expect(placeBlock(ready)).toBeUndefined());
  it('says the permission first, in the spec words', () =>
    expect(placeBlock({ ...ready, allowed: false, studies: 0 })).toEqual({
      reason: Denied.noOrderPermission,
      hint: Denied.contactAdmin,
    }));
  it('names who can share a study when none is available', () => {
    expect(placeBlock({ ...ready, studies: 0, sharers: ['Ana', 'Bo', 'Cy'] })).toEqual({
      reason: OrdersText.noStudy,
      hint: 'Ana, Bo or Cy can share a study with you.',
    });
    expect(placeBlock({ ...ready, studies: 0 })?.hint).toBe(OrdersText.askForStudy([]));
  });
  it('then the choices still to make', () =>
    expect(placeBlock({ ...ready, studyChosen: false })?.reason).toBe(OrdersText.chooseAll));
});

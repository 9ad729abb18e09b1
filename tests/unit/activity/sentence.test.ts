// Activity rows read as sentences about things (src/app/activity/sentence.ts): who did what to which
// slide or study, named from a lookup that stands for the local mirror, rows of one action grouped,
// field names in the product's words.
import { describe, expect, it } from 'vitest';
import type { Activity } from '../../../src/api/entities';
import type { SyncKind } from '../../../src/api/sync';
import {
  GROUP_WINDOW_MS,
  describeGroup,
  groupActivities,
  sentenceText,
  type FeedLookup,
} from '../../../src/app/activity/sentence';

const ROWS: Record<string, Record<string, unknown>> = {
  'users:me': { id: 'me', name: 'Alice Moreno' },
  'users:chiara': { id: 'chiara', name: 'Chiara Rossi' },
  'users:dev': { id: 'dev', name: 'Dev Patel' },
  'users:erin': { id: 'erin', name: '', email: 'erin@northside.demo' },
  'organizations:histo': { id: 'histo', name: 'Histology Core', parentId: 'lab' },
  'studies:st1': { id: 'st1', name: 'Kidney 12' },
  'scan-groups:sg1': { id: 'sg1', simpleId: 'Q2DTP4JV' },
  'scan-groups:sg2': { id: 'sg2', simpleId: 'A1B2C3D4' },
  'scan-groups:sg3': { id: 'sg3', simpleId: 'ZZ9K0M1N' },
  'images:im1': { id: 'im1', name: 'kidney.czi', scanGroupId: 'sg1' },
  'images:im2': { id: 'im2', name: 'lung.czi', scanGroupId: 'sg2' },
  'images:im3': { id: 'im3', name: 'liver.czi', scanGroupId: 'sg3' },
  'images:loose': { id: 'loose', name: 'unlabelled.czi', scanGroupId: null },
  'reviews:rv1': { id: 'rv1', imageId: 'im1' },
};
const lookup: FeedLookup = {
  meId: 'me',
  row: (kind: SyncKind, id: string) => ROWS[`${kind}:${id}`],
};

let n = 0;
const T0 = Date.parse('2026-11-26T14:05:00Z');
function act(over: Partial<Activity> & Pick<Activity, 'reference' | 'actionType'>, minutesAgo = 0): Activity {
  n += 1;
  return {
    id: `a${n}`,
    date: new Date(T0 - minutesAgo * 60_000).toISOString(),
    diff: {},
    referenceId: null,
    creatorUserId: 'chiara',
    organizationId: 'histo',
    ...over,
  };
}
const text = (rows: Activity[]) => groupActivities(rows).map((g) => sentenceText(g, lookup));

describe('activity sentences', () => {
  it('names the slide of a requested review and its reviewer', () => {
    const row = act({
      reference: 'Review',
      actionType: 'create',
      referenceId: 'new-review',
      diff: { reviewGroupUUID: 'g1', imageId: 'im1', reviewerId: 'dev', status: 'pending', type: 'standard' },
    });
    expect(text([row])).toEqual(['Chiara Rossi requested a review of slide Q2DTP4JV from Dev Patel']);
    expect(describeGroup([row], lookup)).toContainEqual({ text: 'Q2DTP4JV', href: '/sgviewer/sg1' });
  });

  it('reads one review request of three slides to two reviewers as one sentence', () => {
    const rows = ['im1', 'im2', 'im3'].flatMap((imageId) =>
      ['dev', 'me'].map((reviewerId) =>
        act({
          reference: 'Review',
          actionType: 'create',
          diff: { reviewGroupUUID: 'g2', imageId, reviewerId, type: 'qc' },
        }),
      ),
    );
    expect(text(rows)).toEqual([
      'Chiara Rossi requested a QC review of slides Q2DTP4JV, A1B2C3D4 and ZZ9K0M1N from Dev Patel and you',
    ]);
  });

  it('names reviewed images that are on no slide yet as images', () => {
    const rows = ['im1', 'loose'].map((imageId) =>
      act({
        reference: 'Review',
        actionType: 'create',
        diff: { reviewGroupUUID: 'g3', imageId, reviewerId: 'dev' },
      }),
    );
    expect(text(rows)).toEqual([
      'Chiara Rossi requested a review of slide Q2DTP4JV and image unlabelled.czi from Dev Patel',
    ]);
  });

  it('says You for the signed-in user and links the study', () => {
    const row = act({
      reference: 'Study',
      actionType: 'create',
      referenceId: 'st1',
      creatorUserId: 'me',
      diff: { name: 'Kidney 12' },
    });
    expect(text([row])).toEqual(['You created study Kidney 12']);
    expect(describeGroup([row], lookup)).toContainEqual({ text: 'Kidney 12', href: '/studies/st1' });
  });

  it("shows changed fields in the product's words, never their code names", () => {
    const row = act({
      reference: 'Study',
      actionType: 'update',
      referenceId: 'st1',
      diff: { scanGroupIds: ['sg1', 'sg2'], tags: ['urgent'] },
    });
    const [sentence] = text([row]);
    expect(sentence).toBe('Chiara Rossi changed the slides and tags of study Kidney 12');
    expect(sentence).not.toMatch(/scanGroupIds|scan group/);
    const lis = act({
      reference: 'ScanGroup',
      actionType: 'update',
      referenceId: 'sg1',
      diff: { LISInfo: {}, organId: 'o' },
    });
    expect(text([lis])).toEqual(['Chiara Rossi changed the LIS information and organ of slide Q2DTP4JV']);
  });

  it('names a deleted thing from the row, without a link, and a rename by its new name', () => {
    const gone = act({
      reference: 'Study',
      actionType: 'delete',
      referenceId: 'st-gone',
      diff: { name: 'Old study' },
    });
    expect(text([gone])).toEqual(['Chiara Rossi deleted study Old study']);
    expect(describeGroup([gone], lookup)).toContainEqual({ text: 'Old study', href: undefined });
    const renamed = act({
      reference: 'Study',
      actionType: 'update',
      referenceId: 'st1',
      diff: { name: 'Kidney 13' },
    });
    expect(text([renamed])).toEqual(['Chiara Rossi renamed a study to Kidney 13']);
  });

  it('reads shares, hearts, label repairs and uploads as what they are', () => {
    const share = act({
      reference: 'Study',
      actionType: 'share',
      referenceId: 'st1',
      diff: { assigneeUserIds: ['chiara', 'dev'], assigneeOrgIds: ['histo'] },
    });
    const heart = act({
      reference: 'Reaction',
      actionType: 'create',
      referenceId: 'r1',
      diff: { referenceId: 'sg2' },
    });
    const linked = act({
      reference: 'Image',
      actionType: 'update',
      referenceId: 'loose',
      diff: { scanGroupId: 'sg3' },
    });
    const upload = act({
      reference: 'Image',
      actionType: 'upload',
      referenceId: 'im2',
      diff: { name: 'lung.czi', scanGroupId: 'sg2' },
    });
    expect(text([share, heart, linked, upload])).toEqual([
      'Chiara Rossi shared study Kidney 12 with Dev Patel and Histology Core',
      'Chiara Rossi added a heart to slide A1B2C3D4',
      'Chiara Rossi linked image unlabelled.czi to slide ZZ9K0M1N',
      'Chiara Rossi uploaded image lung.czi to slide A1B2C3D4',
    ]);
  });

  it('groups rows of one action only: same person, kind, action and shape, close in time', () => {
    const slide = (id: string, simpleId: string, minutesAgo: number, creatorUserId = 'chiara') =>
      act(
        { reference: 'ScanGroup', actionType: 'create', referenceId: id, creatorUserId, diff: { simpleId } },
        minutesAgo,
      );
    const rows = [
      slide('sg1', 'Q2DTP4JV', 0),
      slide('sg2', 'A1B2C3D4', 0),
      slide('x1', 'X1', 1),
      slide('x2', 'X2', 1),
      slide('x3', 'X3', 1),
      slide('x4', 'X4', 2, 'erin'),
      slide('x5', 'X5', 2 + GROUP_WINDOW_MS / 60_000 + 1, 'erin'),
    ];
    expect(text(rows)).toEqual([
      'Chiara Rossi created slides Q2DTP4JV, A1B2C3D4, X1 and 2 more',
      'erin@northside.demo created slide X4',
      'erin@northside.demo created slide X5',
    ]);
  });

  it('says who is unknown, and what the product did by itself', () => {
    const stranger = act({
      reference: 'Study',
      actionType: 'create',
      referenceId: 'st1',
      creatorUserId: 'ghost',
    });
    const system = act({
      reference: 'ScanOrder',
      actionType: 'update',
      referenceId: 'o1',
      creatorUserId: null,
      diff: { status: 'fulfilled' },
    });
    expect(text([stranger, system])).toEqual([
      'Unavailable User created study Kidney 12',
      'Tessera changed the status of an order to fulfilled',
    ]);
  });
});

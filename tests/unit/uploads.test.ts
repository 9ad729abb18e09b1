// The pure parts of the upload contract: §4.3 display of every status, the server→row status mapping,
// and the §9 speed, time-left and slow-speed texts.
import { describe, expect, it } from 'vitest';
import { UploadText } from '../../src/api/messages';
import {
  displayUploadStatus,
  formatSpeed,
  formatTimeLeft,
  isSlowSpeed,
  nextChunkSize,
  pushSample,
  speedOf,
  statusFromGroup,
  UploadErrorStatuses,
  UploadMetadata,
  UploadStatuses,
  UploadWaitingStatuses,
  type UploadGroup,
  type UploadStatus,
} from '../../src/api/uploads';

const MiB = 1024 * 1024;

describe('§4.3 status display', () => {
  const show = (status: UploadStatus, progress = 0, error?: string) =>
    displayUploadStatus({ status, progress, error });

  it.each([
    ['waiting', 'Waiting'],
    ['waiting_for_upload_metadata', 'Starting Upload'],
    ['waiting_for_multipart_upload_metadata', 'Starting Upload'],
    ['waiting_for_image_creation', 'Reading Label...'],
    ['waiting_for_upload', 'Queued For Upload'],
    ['waiting_for_multipart_upload', 'Queued For Upload'],
    ['waiting_for_label_upload_metadata', 'Label Upload in Progress'],
    ['waiting_for_label_upload', 'Label Upload in Progress'],
    ['waiting_for_label', 'Label Upload in Progress'],
    ['waiting_for_apply_label', 'Label Upload in Progress'],
    ['waiting_for_stamp', 'Confirming Upload'],
    ['waiting_for_processing', 'Waiting for processing...'],
    ['done', 'Upload Complete'],
    ['aborted', 'Canceled'],
    ['read_error', 'Invalid file'],
    ['image_creation_error', 'Invalid file'],
    ['image_label_decode_error', 'Upload Incomplete'],
    ['label_does_not_exist', 'Upload Incomplete'],
    ['image_label_apply_error', 'Upload Incomplete'],
    ['queued', 'queued'],
    ['upload_error', 'upload_error'],
    ['processing_error', 'processing_error'],
    ['stamping_error', 'stamping_error'],
  ] as const)('%s shows %s', (status, text) => {
    expect(show(status).text).toBe(text);
  });

  it('switches to Upload in Progress with a percentage and Cancel once bytes move', () => {
    expect(show('waiting_for_upload', 0)).toMatchObject({ text: 'Queued For Upload', actions: ['cancel'] });
    expect(show('waiting_for_upload', 0.426)).toMatchObject({
      text: 'Upload in Progress',
      detail: '42%',
      percent: 42,
      actions: ['cancel'],
    });
  });

  it('gives the error texts, the label actions and the Open Image link', () => {
    expect(show('read_error').detail).toBe(UploadText.incompatibleFormat);
    expect(show('read_error', 0, 'MIRAX: Index.dat is truncated').detail).toBe(
      'MIRAX: Index.dat is truncated',
    );
    expect(show('image_creation_error', 0, 'channel 3')).toMatchObject({
      detail: UploadText.invalidChannel,
      hover: 'channel 3',
    });
    expect(show('label_does_not_exist')).toMatchObject({ detail: UploadText.noLabel, actions: ['fixLabel'] });
    expect(show('done').actions).toEqual(['openImage']);
  });

  it('knows every status of the spec, and only those', () => {
    expect(UploadWaitingStatuses).toHaveLength(15);
    expect(UploadErrorStatuses).toHaveLength(13);
    expect(new Set(UploadStatuses).size).toBe(28);
  });
});

describe('server group → row status', () => {
  const group = (over: Partial<UploadGroup>): UploadGroup => ({
    id: '00000000-0000-4000-8000-000000000000',
    name: 'a.czi',
    status: 'complete',
    fileCount: 1,
    parts: [],
    error: null,
    image: null,
    images: [],
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...over,
  });
  const image = (over: Partial<NonNullable<UploadGroup['image']>>) => ({
    id: '00000000-0000-4000-8000-000000000001',
    status: 'completed' as const,
    scanGroupId: null,
    code: null,
    desc: null,
    ...over,
  });

  it('follows the group, then its image', () => {
    expect(statusFromGroup(group({ status: 'uploading' }))).toBeUndefined();
    expect(statusFromGroup(group({ status: 'canceled' }))?.status).toBe('aborted');
    expect(statusFromGroup(group({ status: 'failed', error: 'no data' }))).toEqual({
      status: 'read_error',
      error: 'no data',
    });
    expect(statusFromGroup(group({}))?.status).toBe('waiting_for_stamp');
    expect(statusFromGroup(group({ image: image({ status: 'processing' }) }))?.status).toBe(
      'waiting_for_processing',
    );
    expect(
      statusFromGroup(group({ image: image({ scanGroupId: '00000000-0000-4000-8000-000000000002' }) }))
        ?.status,
    ).toBe('done');
    expect(statusFromGroup(group({ image: image({ code: 'image_label_decode_error' }) }))?.status).toBe(
      'image_label_decode_error',
    );
    expect(statusFromGroup(group({ image: image({ code: 'label_does_not_exist' }) }))?.status).toBe(
      'label_does_not_exist',
    );
    expect(
      statusFromGroup(group({ image: image({ status: 'failed', code: 'read_error', desc: 'truncated' }) })),
    ).toEqual({
      status: 'read_error',
      error: 'truncated',
    });
    expect(statusFromGroup(group({ image: image({ status: 'failed', code: 'weird' }) }))?.status).toBe(
      'processing_error',
    );
  });
});

describe('§9 speed and time left', () => {
  it('formats speed in B/s, kB/s, MB/s with 2 decimals, base 1024', () => {
    expect(formatSpeed(0)).toBe('0.00 B/s');
    expect(formatSpeed(1023)).toBe('1023.00 B/s');
    expect(formatSpeed(1024)).toBe('1.00 kB/s');
    expect(formatSpeed(1536)).toBe('1.50 kB/s');
    expect(formatSpeed(5 * MiB + MiB / 4)).toBe('5.25 MB/s');
  });

  it('estimates, then says About N seconds or About M minutes N seconds', () => {
    expect(formatTimeLeft(1000, undefined)).toBe('Estimating...');
    expect(formatTimeLeft(1000, 0)).toBe('Estimating...');
    expect(formatTimeLeft(1000, 100)).toBe('About 10 seconds');
    expect(formatTimeLeft(1001, 100)).toBe('About 11 seconds');
    expect(formatTimeLeft(5900, 100)).toBe('About 59 seconds');
    expect(formatTimeLeft(6000, 100)).toBe('About 1 minutes 0 seconds');
    expect(formatTimeLeft(12_530, 100)).toBe('About 2 minutes 6 seconds');
  });

  it('uses the last 6 samples', () => {
    let samples = pushSample([], { at: 0, bytes: 0 });
    expect(speedOf(samples)).toBeUndefined();
    // A slow start, then steady 1000 B/s: after 6 more samples the start no longer counts.
    samples = pushSample(samples, { at: 1000, bytes: 10 });
    for (let i = 2; i <= 7; i++) samples = pushSample(samples, { at: i * 1000, bytes: 10 + (i - 1) * 1000 });
    expect(samples).toHaveLength(6);
    expect(speedOf(samples)).toBe(1000);
  });

  it('warns below 100000 bytes/s', () => {
    expect(isSlowSpeed(undefined)).toBe(false);
    expect(isSlowSpeed(99_999)).toBe(true);
    expect(isSlowSpeed(100_000)).toBe(false);
    expect(UploadText.slowSpeed).toBe(
      'Warning your internet speed is below a recommended 1Mb/s. Please consider upgrading your internet speed.',
    );
  });

  it('sizes chunks to the speed, between 8 and 64 MiB', () => {
    expect(nextChunkSize(undefined)).toBe(8 * MiB);
    expect(nextChunkSize(100_000)).toBe(8 * MiB);
    expect(nextChunkSize(4 * MiB)).toBe(20 * MiB);
    expect(nextChunkSize(1000 * MiB)).toBe(64 * MiB);
  });
});

describe('upload metadata', () => {
  const base = { filename: 'a.czi', groupId: '00000000-0000-4000-8000-000000000000', groupSize: '1' };
  it('takes a file name, a group and a relative path inside the folder', () => {
    expect(UploadMetadata.parse(base).groupSize).toBe(1);
    expect(UploadMetadata.safeParse({ ...base, relativePath: 'slide/Index.dat' }).success).toBe(true);
    for (const relativePath of ['../x', '/abs', 'a//b', 'a/./b'])
      expect(UploadMetadata.safeParse({ ...base, relativePath }).success).toBe(false);
    expect(UploadMetadata.safeParse({ ...base, filename: 'a/b.czi' }).success).toBe(false);
    expect(UploadMetadata.safeParse({ ...base, groupSize: '0' }).success).toBe(false);
  });
});

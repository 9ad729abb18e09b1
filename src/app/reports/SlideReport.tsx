// /reports/scangroup-report/{scanGroupId} (§2.2, §2.10): the printable Slide Report — the scan
// details, each image with its thumbnail, and each image's layers (channels).
import { useQuery } from '@tanstack/react-query';
import type { Image } from '../../api/entities';
import { Misc, ReportText, extractMessage } from '../../api/messages';
import { imageProcessingText } from '../../api/reviews';
import { tilesPath } from '../../api/tiles';
import { formatDate } from '../lib/format';
import { slideReportQuery } from './queries';
import { DataTable, Facts, ReportLayout, Section } from './ReportLayout';

export const formatBytes = (n: number | undefined) =>
  !n
    ? '—'
    : n < 1024 ** 2
      ? `${(n / 1024).toFixed(1)} kB`
      : n < 1024 ** 3
        ? `${(n / 1024 ** 2).toFixed(1)} MB`
        : `${(n / 1024 ** 3).toFixed(2)} GB`;

export function Thumb({ image, size = 110 }: { image: Image; size?: number }) {
  return (
    <img
      src={tilesPath(image.id, 'thumbnail.jpg')}
      alt={`Thumbnail of ${image.name}`}
      style={{
        width: size,
        height: size,
        objectFit: 'contain',
        background: '#f1f3f5',
        border: '1px solid #dee2e6',
      }}
      onError={(e) => {
        e.currentTarget.style.visibility = 'hidden';
      }}
    />
  );
}

export function SlideReport({ scanGroupId }: { scanGroupId: string }) {
  const q = useQuery(slideReportQuery(scanGroupId));
  const data = q.data;
  const error = q.isError ? extractMessage(q.error) : q.isSuccess && !data ? Misc.resultsNotFound : undefined;
  return (
    <ReportLayout
      title={ReportText.slideReport}
      subtitle={
        data ? `Slide ${data.slide.simpleId}${data.slide.name ? ` — ${data.slide.name}` : ''}` : undefined
      }
      ready={q.isSuccess}
      error={error}
    >
      {data && (
        <>
          <Section title="Scan details">
            <Facts
              rows={[
                ['Slide ID', data.slide.simpleId],
                ['Name', data.slide.name || '—'],
                ['Animal', data.slide.animal || '—'],
                ['Organ', data.organ ?? '—'],
                ['Status', data.slide.status],
                ['Storage', data.slide.storageStatus],
                ['Created', formatDate(data.slide.createdAt)],
                ['Created by', data.creator ?? Misc.unavailableUser],
                ['Tags', data.slide.tags.join(', ') || '—'],
                ['Notes', data.slide.notes || '—'],
                ['Images', data.images.length],
              ]}
            />
          </Section>
          <Section title="Images">
            {data.images.length === 0 ? (
              <p>{Misc.imageNotAvailable}</p>
            ) : (
              <DataTable
                head={['Thumbnail', 'Image', 'Scan type', 'Processing', 'Size', 'Pixel size', 'Uploaded']}
                rows={data.images.map((img) => [
                  <Thumb key="t" image={img} />,
                  <span key="n" style={{ wordBreak: 'break-all' }}>
                    {img.name}
                  </span>,
                  img.scanType ?? '—',
                  imageProcessingText(img.status),
                  formatBytes(img.info.size),
                  img.pixelScale ? `${img.pixelScale} µm/px` : '—',
                  formatDate(img.createdAt),
                ])}
              />
            )}
          </Section>
          <Section title="Layers">
            <DataTable
              head={['Image', 'Layer', 'Label', 'Colour']}
              rows={data.images.flatMap((img) =>
                (data.layers[img.id]?.length ? data.layers[img.id] : [undefined]).map((l) => [
                  img.name,
                  l?.name ?? '—',
                  l?.label ?? (l ? '—' : Misc.imageNotAvailable),
                  l ? (
                    <span key="c" style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
                      <span
                        style={{ width: 12, height: 12, background: l.color, border: '1px solid #999' }}
                      />
                      {l.color}
                    </span>
                  ) : (
                    '—'
                  ),
                ]),
              )}
            />
          </Section>
        </>
      )}
    </ReportLayout>
  );
}

// Export GeoJSON (downloads the image's annotations in QuPath's layout) and Import GeoJSON (picks a
// .geojson/.json file, checks it here with the server's own rules so a wrong file is named at once,
// then sends it; the server stores all features or none). Import needs the right to add annotations.
import { useRef, useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import {
  GEOJSON_IMPORT_MAX_BYTES,
  GeoJsonText,
  geoJsonPath,
  importErrorMessage,
  parseGeoJsonText,
  type GeoJsonImportResult,
  type ImageBounds,
  type QuPathFeatureCollection,
} from '../../../api/annotation-geojson';
import { extractMessage } from '../../../api/messages';
import { api } from '../../lib/api';
import { DeniedTooltip } from '../../lib/DeniedTooltip';

/** Saves text as a file. Side effect: a download in the browser. */
function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/geo+json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function GeoJsonButtons({
  imageId,
  bounds,
  deniedImport,
  notesWithoutRegion,
  onImported,
}: {
  imageId: string;
  bounds?: ImageBounds;
  /** Why the user may not add annotations, if they may not. */
  deniedImport?: string;
  /** How many of the listed annotations are notes only (they have no geometry to export). */
  notesWithoutRegion: number;
  onImported: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<'export' | 'import'>();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();

  const exportFile = async () => {
    setBusy('export');
    setOutcome(undefined);
    try {
      const fc = await api<QuPathFeatureCollection>('GET', geoJsonPath(imageId));
      download(JSON.stringify(fc), `annotations-${imageId.slice(0, 8)}.geojson`);
      if (notesWithoutRegion > 0) setOutcome({ ok: true, text: GeoJsonText.notExported(notesWithoutRegion) });
    } catch (error) {
      setOutcome({ ok: false, text: extractMessage(error) });
    } finally {
      setBusy(undefined);
    }
  };

  const importFile = async (file: File) => {
    setOutcome(undefined);
    if (file.size > GEOJSON_IMPORT_MAX_BYTES) return setOutcome({ ok: false, text: GeoJsonText.tooLarge });
    setBusy('import');
    try {
      const text = await file.text();
      const parsed = parseGeoJsonText(text, bounds);
      if (!parsed.ok) return setOutcome({ ok: false, text: importErrorMessage(parsed.errors) });
      const res = await api<GeoJsonImportResult>('POST', geoJsonPath(imageId), { body: JSON.parse(text) });
      setOutcome({ ok: true, text: GeoJsonText.imported(res.result.count) });
      onImported();
    } catch (error) {
      setOutcome({ ok: false, text: extractMessage(error) });
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <>
      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="default"
          loading={busy === 'export'}
          onClick={() => void exportFile()}
        >
          {GeoJsonText.exportButton}
        </Button>
        <DeniedTooltip reason={deniedImport}>
          <Button
            size="compact-sm"
            variant="default"
            loading={busy === 'import'}
            disabled={!!deniedImport}
            onClick={() => input.current?.click()}
          >
            {GeoJsonText.importButton}
          </Button>
        </DeniedTooltip>
        <input
          ref={input}
          type="file"
          accept=".geojson,.json,application/geo+json,application/json"
          aria-label={GeoJsonText.importButton}
          hidden
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (file) void importFile(file);
          }}
        />
      </Group>
      {outcome && (
        <Text
          size="xs"
          c={outcome.ok ? 'teal.8' : 'red'}
          role={outcome.ok ? 'status' : 'alert'}
          data-testid="geojson-outcome"
        >
          {outcome.text}
        </Text>
      )}
    </>
  );
}

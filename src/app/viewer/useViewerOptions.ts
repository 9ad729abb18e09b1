// The viewer options (exposure, gamma, saturation, contrast, brightness) saved per user and study in
// user-viewer-settings (spec §3, DESIGN "View"): loaded when the viewer opens, saved a moment after the
// last change. Outside a study they are saved under no study.
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UserViewerSettings } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { api } from '../lib/api';
import { useMe } from '../session/session-context';
import { DEFAULT_OPTIONS, type ViewerOptions } from './adjust';

const SAVE_AFTER_MS = 800;

function readOptions(value: unknown): ViewerOptions {
  const o = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const num = (k: keyof ViewerOptions) =>
    typeof o[k] === 'number' && Number.isFinite(o[k]) ? (o[k] as number) : DEFAULT_OPTIONS[k];
  return {
    exposure: num('exposure'),
    gamma: num('gamma'),
    saturation: num('saturation'),
    contrast: num('contrast'),
    brightness: num('brightness'),
  };
}

export function useViewerOptions(studyId: string | undefined): [ViewerOptions, (o: ViewerOptions) => void] {
  const me = useMe();
  const [options, setOptions] = useState<ViewerOptions>(DEFAULT_OPTIONS);
  const touched = useRef(false);
  const stored = useQuery({
    queryKey: ['viewer-settings', me.user.id, studyId ?? null],
    queryFn: async () => {
      const qs = new URLSearchParams({ creatorUserId: me.user.id, limit: '100' });
      if (studyId) qs.set('studyId', studyId);
      const list = await api<ListResult<UserViewerSettings>>('GET', `/user-viewer-settings?${qs}`);
      return list.result.find((s) => (s.studyId ?? undefined) === studyId);
    },
    staleTime: 60_000,
  });
  useEffect(() => {
    if (stored.data && !touched.current) setOptions(readOptions(stored.data.viewerSettings.options));
  }, [stored.data]);
  useEffect(() => {
    if (!touched.current) return;
    const timer = setTimeout(() => {
      void api('POST', '/user-viewer-settings', {
        body: { studyId: studyId ?? null, viewerSettings: { options } },
      }).catch(
        () => undefined, // offline or refused: the options stay on screen; the next change tries again
      );
    }, SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [options, studyId]);
  return [
    options,
    (next) => {
      touched.current = true;
      setOptions(next);
    },
  ];
}

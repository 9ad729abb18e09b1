// The viewer's side panel (in a drawer on narrow windows): zoom buttons, layers/channels (toggle, colour, display window) and the
// viewer options of the spec (exposure, gamma, saturation, contrast, brightness).
import {
  Card,
  ColorSwatch,
  Group,
  RangeSlider,
  ScrollArea,
  Slider,
  Stack,
  Switch,
  Text,
  Button,
} from '@mantine/core';
import type OpenSeadragon from 'openseadragon';
import type { LayersManifest } from '../../api/tiles';
import { DEFAULT_OPTIONS, type ChannelDisplay, type ViewerOptions } from './adjust';
import { ZoomButtons } from './ZoomButtons';

const OPTION_SLIDERS: Array<{
  key: keyof ViewerOptions;
  label: string;
  min: number;
  max: number;
  step: number;
}> = [
  { key: 'exposure', label: 'Exposure', min: -3, max: 3, step: 0.1 },
  { key: 'gamma', label: 'Gamma', min: 0.2, max: 3, step: 0.05 },
  { key: 'saturation', label: 'Saturation', min: 0, max: 2, step: 0.05 },
  { key: 'contrast', label: 'Contrast', min: 0.2, max: 3, step: 0.05 },
  { key: 'brightness', label: 'Brightness', min: -1, max: 1, step: 0.02 },
];

export function ViewerControls(props: {
  manifest: LayersManifest;
  viewer?: OpenSeadragon.Viewer;
  options: ViewerOptions;
  onOptions(o: ViewerOptions): void;
  channels: ChannelDisplay[];
  onChannels(c: ChannelDisplay[]): void;
  /** Without its card and scroll area, for a drawer. */
  bare?: boolean;
}) {
  const { manifest, options, channels } = props;
  const setChannel = (i: number, change: Partial<ChannelDisplay>) =>
    props.onChannels(channels.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const body = (
    <Stack gap="md">
      <ZoomButtons viewer={props.viewer} />
      <div>
        <Text fw={600} size="sm" mb={4}>
          {manifest.kind === 'fluorescence' ? 'Channels' : 'Layers'}
        </Text>
        <Stack gap="xs">
          {manifest.layers.map((layer, i) => (
            <div key={layer.name}>
              <Group gap="xs" wrap="nowrap">
                <ColorSwatch color={layer.color} size={14} />
                <Switch
                  size="xs"
                  label={layer.label}
                  checked={channels[i]?.visible ?? true}
                  disabled={manifest.kind !== 'fluorescence'}
                  onChange={(e) => setChannel(i, { visible: e.currentTarget.checked })}
                />
              </Group>
              {manifest.kind === 'fluorescence' && channels[i] && (
                <RangeSlider
                  mt={4}
                  size="xs"
                  min={0}
                  max={255}
                  minRange={1}
                  label={null}
                  thumbFromLabel={`${layer.label} lower bound`}
                  thumbToLabel={`${layer.label} upper bound`}
                  value={[channels[i].min, channels[i].max]}
                  onChange={([min, max]) => setChannel(i, { min, max })}
                />
              )}
            </div>
          ))}
        </Stack>
      </div>
      <div>
        <Group justify="space-between" mb={4}>
          <Text fw={600} size="sm">
            Viewer options
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => props.onOptions(DEFAULT_OPTIONS)}>
            Reset
          </Button>
        </Group>
        <Stack gap={6}>
          {OPTION_SLIDERS.filter((s) => s.key !== 'saturation' || manifest.kind === 'brightfield').map(
            (s) => (
              <div key={s.key}>
                <Text size="xs">{s.label}</Text>
                <Slider
                  size="xs"
                  min={s.min}
                  max={s.max}
                  step={s.step}
                  thumbLabel={s.label}
                  value={options[s.key]}
                  onChange={(v) => props.onOptions({ ...options, [s.key]: v })}
                />
              </div>
            ),
          )}
        </Stack>
      </div>
    </Stack>
  );
  // In a drawer (narrow windows) the drawer frames and scrolls it.
  if (props.bare) return body;
  return (
    <Card withBorder radius={0} w={260} p="sm" style={{ flexShrink: 0 }}>
      <ScrollArea h="100%">{body}</ScrollArea>
    </Card>
  );
}

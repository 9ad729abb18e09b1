// A donut chart with its legend (the Stain Status and QC Status cards, §2.9): plain SVG arcs, one per
// non-empty part, the total in the middle. Counts, not percentages, are what the legend shows.
import { Group, Stack, Text } from '@mantine/core';

export interface DonutPart {
  label: string;
  value: number;
  color: string;
}

const R = 40;
const C = 2 * Math.PI * R;

export function Donut({ parts, label }: { parts: readonly DonutPart[]; label: string }) {
  const total = parts.reduce((n, p) => n + p.value, 0);
  let offset = 0;
  return (
    <Group gap="md" wrap="nowrap" align="center">
      <svg width={110} height={110} viewBox="0 0 110 110" role="img" aria-label={label}>
        <circle cx={55} cy={55} r={R} fill="none" stroke="var(--mantine-color-gray-2)" strokeWidth={14} />
        {total > 0 &&
          parts
            .filter((p) => p.value > 0)
            .map((p) => {
              const len = (p.value / total) * C;
              const arc = (
                <circle
                  key={p.label}
                  cx={55}
                  cy={55}
                  r={R}
                  fill="none"
                  stroke={p.color}
                  strokeWidth={14}
                  strokeDasharray={`${len} ${C - len}`}
                  strokeDashoffset={-offset}
                  transform="rotate(-90 55 55)"
                />
              );
              offset += len;
              return arc;
            })}
        <text x={55} y={60} textAnchor="middle" fontSize={18} fontWeight={700} fill="currentColor">
          {total}
        </text>
      </svg>
      <Stack gap={4}>
        {parts.map((p) => (
          <Group key={p.label} gap={6} wrap="nowrap">
            <span
              style={{ width: 10, height: 10, borderRadius: 2, background: p.color, display: 'inline-block' }}
            />
            <Text size="sm">
              {p.label}: {p.value}
            </Text>
          </Group>
        ))}
      </Stack>
    </Group>
  );
}

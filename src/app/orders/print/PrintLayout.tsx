// A printable page for the label and order reports: on screen a sheet with a Print button; on paper
// only the sheet (the app's top bar, footer and the buttons are hidden). Print waits until every
// picture on the sheet has loaded (§9), then opens the browser's print dialog; a failure is only
// logged (§8 "Print failures are only logged").
import { useRef, type ReactNode } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { picturesLoaded } from '../../lib/pictures-loaded';
import { OrdersText } from '../texts';

const PRINT_CSS = `
@media print {
  @page { margin: 10mm; }
  body * { visibility: hidden !important; }
  .tessera-print, .tessera-print * { visibility: visible !important; }
  .tessera-print { position: absolute; left: 0; top: 0; width: 100%; box-shadow: none !important; border: 0 !important; }
  .tessera-noprint { display: none !important; }
}`;

export function PrintLayout({
  title,
  subtitle,
  printable = true,
  blocked,
  children,
}: {
  title: string;
  subtitle?: string;
  /** False while there is nothing final to print (e.g. labels waiting for sync). */
  printable?: boolean;
  /** Why printing is not possible yet, shown above the sheet. */
  blocked?: string;
  children: ReactNode;
}) {
  const sheet = useRef<HTMLDivElement>(null);
  const print = async () => {
    try {
      if (sheet.current) await picturesLoaded(sheet.current);
      await new Promise((r) => setTimeout(r, 100));
      window.print();
    } catch (error) {
      console.error('print failed', error);
    }
  };
  return (
    <Stack gap="md" maw={900} mx="auto" w="100%">
      <style>{PRINT_CSS}</style>
      <Group justify="space-between" className="tessera-noprint">
        <div />
        <Button onClick={() => void print()} disabled={!printable}>
          {OrdersText.print}
        </Button>
      </Group>
      {blocked && (
        <Alert color="yellow" className="tessera-noprint" role="status">
          {blocked}
        </Alert>
      )}
      <Paper withBorder p="lg" radius="md" className="tessera-print" ref={sheet}>
        <Stack gap="md">
          <div>
            <Title order={2}>{title}</Title>
            {subtitle && <Text c="dimmed">{subtitle}</Text>}
          </div>
          {children}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** Label–value rows of a report. */
export function FactTable({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <table style={{ borderCollapse: 'collapse', width: '100%' }}>
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
            <th style={{ textAlign: 'left', padding: '6px 12px 6px 0', width: 180, fontWeight: 600 }}>{k}</th>
            <td style={{ padding: '6px 0' }}>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// The shared layout of the printable reports (§2.10, §9): a document a lab would file. On screen a
// sheet with a paper-size switch (A4 / Letter) and a Print button; on paper only the sheet, with a
// running header (organization, report title, print date) and "Page N of M" in the page margins
// (CSS @page margin boxes), and a title block on the first page. When its data is ready the report
// waits for every picture on the sheet to load (or fail), waits 100 ms, prints and closes the tab
// (§9); a print failure is only logged (§8).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { ReportText, Session } from '../../api/messages';
import { formatDate } from '../lib/format';
import { useMe } from '../session/session-context';
import { picturesLoaded } from '../lib/pictures-loaded';

export type PaperSize = 'A4' | 'Letter';

/** Letter where it is the norm (US, Canada, Mexico, Philippines…), A4 elsewhere. */
export function defaultPaper(
  locale = typeof navigator === 'undefined' ? 'en' : navigator.language,
): PaperSize {
  return /-(US|CA|MX|PH|CL|CO|VE|GT|CR|PA|DO|PR|SV|NI|HN|BO)$/i.test(locale) ? 'Letter' : 'A4';
}

/** A CSS string literal (for `content:`). */
const cssString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, ' ')}"`;

export function printCss(paper: PaperSize, headerLeft: string, headerRight: string): string {
  const size = paper === 'A4' ? 'A4' : 'letter';
  return `
@page {
  size: ${size};
  margin: 20mm 15mm 18mm 15mm;
  @top-left { content: ${cssString(headerLeft)}; font: 9pt sans-serif; color: #555; }
  @top-right { content: ${cssString(headerRight)}; font: 9pt sans-serif; color: #555; }
  @bottom-left { content: "Tessera"; font: 8pt sans-serif; color: #888; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 9pt sans-serif; color: #555; }
}
@media print {
  html, body { background: #fff !important; }
  body * { visibility: hidden !important; }
  .tessera-report, .tessera-report * { visibility: visible !important; }
  .tessera-report { position: absolute; left: 0; top: 0; width: 100%; padding: 0 !important;
    box-shadow: none !important; border: 0 !important; }
  .tessera-noprint { display: none !important; }
  .tessera-report table { page-break-inside: auto; }
  .tessera-report tr, .tessera-report .keep { break-inside: avoid; }
  .tessera-report thead { display: table-header-group; }
}`;
}

/** §9: once the pictures are in, wait 100 ms, print, close the tab. */
export async function printAndClose(root: HTMLElement | null): Promise<void> {
  try {
    if (root) await picturesLoaded(root);
    await new Promise((r) => setTimeout(r, 100));
    window.print();
    window.close();
  } catch (error) {
    console.error('print failed', error);
  }
}

export function ReportLayout({
  title,
  subtitle,
  ready,
  error,
  children,
}: {
  title: string;
  subtitle?: string;
  /** The report's data is in: the sheet is complete but for its pictures. */
  ready: boolean;
  /** Why the report cannot be shown (then it is not printed). */
  error?: string;
  children: ReactNode;
}) {
  const me = useMe();
  const [paper, setPaper] = useState<PaperSize>(defaultPaper);
  const sheet = useRef<HTMLDivElement>(null);
  const printed = useRef(false);
  const now = new Date();
  const org = me.organization.name;

  useEffect(() => {
    if (!ready || error || printed.current) return;
    printed.current = true;
    void printAndClose(sheet.current);
  }, [ready, error]);

  return (
    <Stack gap="md" maw={960} mx="auto" w="100%">
      <style>{printCss(paper, `${org} · ${title}`, `Printed ${formatDate(now)}`)}</style>
      <Group justify="space-between" className="tessera-noprint">
        <SegmentedControl
          value={paper}
          onChange={(v) => setPaper(v === 'Letter' ? 'Letter' : 'A4')}
          data={['A4', 'Letter']}
          aria-label="Paper size"
        />
        <Group gap="sm">
          {!ready && !error && (
            <Text size="sm" c="dimmed">
              {ReportText.preparing}
            </Text>
          )}
          <Button onClick={() => void printAndClose(sheet.current)} disabled={!ready || !!error}>
            Print
          </Button>
        </Group>
      </Group>
      {error && (
        <Alert color="red" role="alert" className="tessera-noprint">
          {error}
        </Alert>
      )}
      <Paper
        withBorder
        p="xl"
        radius="md"
        className="tessera-report"
        ref={sheet}
        data-testid="report"
        data-ready={ready && !error ? 'true' : 'false'}
        data-paper={paper}
      >
        <Stack gap="lg">
          <Group justify="space-between" align="flex-start" className="keep">
            <div>
              <Text size="sm" c="dimmed" tt="uppercase" fw={600}>
                {org}
              </Text>
              <Title order={1} size="h2">
                {title}
              </Title>
              {subtitle && (
                <Text size="lg" fw={500}>
                  {subtitle}
                </Text>
              )}
            </div>
            <Stack gap={0} align="flex-end">
              <Text size="sm">Printed {formatDate(now)}</Text>
              <Text size="sm" c="dimmed">
                by {me.user.name || me.user.email}
              </Text>
            </Stack>
          </Group>
          <div style={{ borderTop: '2px solid var(--mantine-color-gray-8)' }} />
          {ready || error ? children : <Text c="dimmed">{Session.loading}</Text>}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** A report section: a heading and its content, kept together where it fits. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title
        order={2}
        size="h4"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-4)', paddingBottom: 4 }}
      >
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Label–value rows. */
export function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <table className="keep" style={{ borderCollapse: 'collapse', width: '100%' }}>
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
            <th
              style={{
                textAlign: 'left',
                padding: '5px 12px 5px 0',
                width: 200,
                fontWeight: 600,
                verticalAlign: 'top',
              }}
            >
              {k}
            </th>
            <td style={{ padding: '5px 0' }}>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A data table whose header repeats on every printed page. */
export function DataTable({ head, rows }: { head: string[]; rows: ReactNode[][] }) {
  const cell = { padding: '6px 8px', textAlign: 'left' as const, verticalAlign: 'top' as const };
  return (
    <table style={{ borderCollapse: 'collapse', width: '100%', fontSize: 13 }}>
      <thead>
        <tr
          style={{
            background: 'var(--mantine-color-gray-1)',
            borderBottom: '1px solid var(--mantine-color-gray-5)',
          }}
        >
          {head.map((h) => (
            <th key={h} style={{ ...cell, fontWeight: 600 }}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
            {r.map((c, j) => (
              <td key={j} style={cell}>
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

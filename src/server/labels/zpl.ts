// Slide labels: ZPL for label printers (300 dpi, 25 × 20 mm slide label), and a PNG rendering of the
// same layout for previews and reports. The DataMatrix carries the slide's simpleId, which the upload
// pipeline's barcode decoder reads back to link an image to its slide.
import bwipjs from 'bwip-js/node';
import sharp from 'sharp';

export interface LabelContent {
  simpleId: string;
  organ?: string | null;
  animal?: string | null;
  /** Printed MM/dd/yyyy (§9). */
  date: Date;
}

/** Label size at 300 dpi: 25 × 20 mm. */
export const LABEL_DOTS = { width: 295, height: 236 } as const;

const pad = (n: number) => String(n).padStart(2, '0');
export const labelDate = (d: Date) => `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}`;

/** Field data as ZPL hex escapes (^FH): nothing a user types can end the field or inject commands. */
function field(text: string): string {
  const hex = Array.from(Buffer.from(text, 'utf8'))
    .map((b) => `_${b.toString(16).padStart(2, '0')}`)
    .join('');
  return `^FH_^FD${hex}^FS`;
}

const organLine = (c: LabelContent) => [c.animal, c.organ].filter(Boolean).join(' · ');

export function labelZpl(c: LabelContent): string {
  return [
    '^XA',
    '^CI28',
    `^PW${LABEL_DOTS.width}`,
    `^LL${LABEL_DOTS.height}`,
    `^FO12,12^BXN,6,200${field(c.simpleId)}`,
    `^FO12,170^A0N,34,34${field(c.simpleId)}`,
    `^FO150,20^A0N,24,24^FB135,3,4,L${field(organLine(c))}`,
    `^FO150,120^A0N,24,24${field(labelDate(c.date))}`,
    '^XZ',
    '',
  ].join('\n');
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * Text longer than the 125 dots beside the code gets a smaller font rather than being cut off
 * (about 0.62 em per character in DejaVu Sans; librsvg ignores textLength).
 */
const fit = (text: string | null | undefined) => {
  const size = Math.max(9, Math.min(20, Math.floor(125 / (0.62 * Math.max(1, (text ?? '').length)))));
  return size < 20 ? ` style="font-size:${size}px"` : '';
};

/** The label as a PNG at 300 dpi, laid out like the ZPL. */
export async function labelPng(c: LabelContent): Promise<Buffer> {
  const code = await bwipjs.toBuffer({
    bcid: 'datamatrix',
    text: c.simpleId,
    scale: 6,
    paddingwidth: 2,
    paddingheight: 2,
  });
  const codeMeta = await sharp(code).metadata();
  const size = Math.min(140, codeMeta.width ?? 140);
  const text = `<svg xmlns="http://www.w3.org/2000/svg" width="${LABEL_DOTS.width}" height="${LABEL_DOTS.height}">
    <style>text{font-family:DejaVu Sans,Arial,sans-serif;fill:#000}</style>
    <text x="12" y="200" font-size="30" font-weight="bold">${escapeXml(c.simpleId)}</text>
    <text x="160" y="42" font-size="20"${fit(c.animal)}>${escapeXml(c.animal ?? '')}</text>
    <text x="160" y="68" font-size="20"${fit(c.organ)}>${escapeXml(c.organ ?? '')}</text>
    <text x="160" y="140" font-size="20">${escapeXml(labelDate(c.date))}</text>
  </svg>`;
  return sharp({
    create: { width: LABEL_DOTS.width, height: LABEL_DOTS.height, channels: 3, background: '#ffffff' },
  })
    .composite([
      { input: await sharp(code).resize(size, size, { kernel: 'nearest' }).toBuffer(), left: 10, top: 10 },
      { input: Buffer.from(text), left: 0, top: 0 },
    ])
    .png()
    .toBuffer();
}

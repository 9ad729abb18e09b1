// Our own words on the label and order pages, where the spec gives none (the spec's texts come from
// src/api/messages.ts). One place, so pages and tests use the same strings.
import type { ScanOrderStatus } from '../../api/enums';

/** 'A', 'A or B', 'A, B or C'. */
const listOr = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;

export const OrdersText = {
  newLabels: 'New Labels',
  labelCount: 'Number of labels',
  creatingLabels: (n: number) => (n === 1 ? 'Creating label...' : `Creating ${n} labels...`),
  labelsCreated: (n: number) => (n === 1 ? 'Label created' : `${n} labels created`),
  savedOffline: 'Saved on this device. It gets its slide ID when you are back online.',
  provisional: 'Provisional ID',
  pending: 'Pending',
  notSaved: 'Not saved',
  waitsForSync:
    'Printing waits for sync: a label gets its final slide ID once it reaches the server, and only that ID is printed.',
  downloadZpl: 'Download ZPL',
  printLabels: 'Print labels',
  selectLabels: 'Select labels to download or print them.',
  noLabels: 'No labels yet. Generate your first ones with New Labels.',
  noActiveLabels: 'You have no active labels.',
  placeOrders: 'Place Orders',
  ordersPlaced: (n: number) => (n === 1 ? 'Order placed' : `${n} orders placed`),
  noOrders: 'No orders here.',
  setActive: 'Set active',
  report: 'Report',
  print: 'Print',
  history: 'History',
  noPipelines: 'No staining pipeline is available to your organization.',
  noStudy: 'No study is available to you, and every order is placed for a study.',
  askForStudy: (names: readonly string[]) =>
    names.length > 0
      ? `${listOr(names)} can share a study with you.`
      : 'Someone who manages studies in your organization can share a study with you.',
  chooseAll: 'Choose the slides, a staining pipeline and a study first.',
  badExpiry: 'Choose an expiry date in the allowed range.',
  scanFailed: (name: string, why?: string) =>
    `The scan ${name} could not be processed${why ? `: ${why}` : '.'}`,
  scanRejected: (name: string, why?: string) => `The scan ${name} was rejected${why ? `: ${why}` : '.'}`,
  failedUnknown: "The slide's scan could not be processed.",
} as const;

/** How an order status reads on the pages (server values, §4.1). */
export const ORDER_STATUS_LABEL: Record<ScanOrderStatus, string> = {
  inactive: 'Not placed',
  active: 'Active',
  processing: 'Processing',
  fulfilled: 'Fulfilled',
  failed: 'Failed',
};

export const ORDER_STATUS_COLOR: Record<ScanOrderStatus, string> = {
  inactive: 'gray',
  active: 'blue',
  processing: 'yellow',
  fulfilled: 'green',
  failed: 'red',
};

/** Badges in narrow table cells show their whole word (Mantine truncates them with an ellipsis). */
export const FULL_BADGE = {
  root: { flexShrink: 0, overflow: 'visible' },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

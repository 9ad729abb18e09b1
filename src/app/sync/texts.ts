// The sync status control's words (SyncStatus.tsx), apart from the component so tests can use them.
export const SyncText = {
  online: 'Online',
  offline: 'Offline',
  allSent: 'All changes are on the server',
  notSaved: (n: number) => (n === 1 ? '1 change was not saved' : `${n} changes were not saved`),
  waiting: (n: number) => (n === 1 ? '1 change waiting to be sent' : `${n} changes waiting to be sent`),
  offlineHint: 'Changes are kept on this device and sent when you are back online.',
  signInNeeded: 'Sign in again to send your changes.',
  lastSynced: (when: string) => `Last synced ${when}`,
  neverSynced: 'Not synced yet',
  offlineReady: 'This device is ready to work offline',
  offlinePreparing: 'Getting this device ready to work offline…',
  failedTitle: 'Not saved',
  syncNow: 'Sync now',
  retry: 'Retry',
  discard: 'Discard',
} as const;

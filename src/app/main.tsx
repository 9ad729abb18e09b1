// The app's entry: theme, notifications, data layer, session, router, service-worker registration, and
// the guards that keep the tab in the app offline (no full reload: lib/chunk-errors.ts, lib/offline-links.ts).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { theme } from './theme';
import { queryClient } from './lib/query-client';
import { SessionProvider } from './session/SessionProvider';
import { startStartupReads } from './session/startup-reads';
import { AppRouter, preloadRouteCode, router } from './router';
import { SyncProvider } from './sync/SyncProvider';
import { registerServiceWorker } from './lib/service-worker';
import { keepChunkErrorsInApp } from './lib/chunk-errors';
import { keepOfflineLinksInApp } from './lib/offline-links';

keepChunkErrorsInApp();
keepOfflineLinksInApp((href) => void router.navigate({ href }));
// Both start before React's first frame: the session and cache reads, and the page's code.
startStartupReads();
preloadRouteCode(window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-right" autoClose={5000} />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <SyncProvider>
            <AppRouter />
          </SyncProvider>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);

registerServiceWorker();

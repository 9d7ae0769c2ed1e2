import { WebKitContext, type WebKit } from '@cambio/web-kit';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { sessionMark } from './lib/api.ts';
import { isUnauthenticated, shown } from './lib/errors.ts';
import { LANG } from './lib/i18n.ts';
import { stateWord } from './lib/states.ts';
import './styles.css';

// Server state is a cache (STYLE §14): lists refetch while something waits; a 4xx is not retried.
// A read answered 401 means the session ended (idle or absolute expiry, removal): back to sign-in.
const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (e) => {
      if (isUnauthenticated(e)) {
        sessionMark.set(false);
        queryClient.setQueryData(['session'], null);
      }
    },
  }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: true, staleTime: 2_000 },
    mutations: { retry: false },
  },
});

document.documentElement.lang = LANG;

/** Every POST of the desk carries a `desk-` Idempotency-Key; a failed call shows in the kit's ErrorBox with its code, which staff quote. */
const kit: WebKit = { keyPrefix: 'desk-', stateWord, describeError: shown, showErrorCode: true, lang: LANG };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <WebKitContext.Provider value={kit}>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </WebKitContext.Provider>
  </StrictMode>,
);

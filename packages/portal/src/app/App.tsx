import type { Lang } from '@cambio/contract';
import { CambioError, type PortalSession } from '@cambio/sdk';
import { LanguageSwitch, WebKitContext, type WebKit } from '@cambio/web-kit';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Account } from '../features/auth/Account.tsx';
import { AcceptInvitation } from '../features/auth/AcceptInvitation.tsx';
import { SignIn } from '../features/auth/SignIn.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from '../features/auth/PasswordReset.tsx';
import { ApiKeys } from '../features/api-keys/ApiKeys.tsx';
import { Balances } from '../features/balances/Balances.tsx';
import { Deposits } from '../features/deposits/Deposits.tsx';
import { Exchange } from '../features/exchange/Exchange.tsx';
import { Ledger } from '../features/ledger/Ledger.tsx';
import { OrderDetail } from '../features/orders/OrderDetail.tsx';
import { Orders } from '../features/orders/Orders.tsx';
import { Team } from '../features/team/Team.tsx';
import { Webhooks } from '../features/webhooks/Webhooks.tsx';
import { Approvals } from '../features/controls/Approvals.tsx';
import { Audit } from '../features/controls/Audit.tsx';
import { Policy } from '../features/controls/Policy.tsx';
import { Withdrawals } from '../features/withdrawals/Withdrawals.tsx';
import { describeError, initialLang, rememberLang, stateWord, translator, type MessageKey } from '../lib/i18n.ts';
import { makeSdk, PortalContext, usePortal, type PortalContextValue } from '../lib/portal-context.ts';
import { Link, useLocation } from '../lib/router.ts';
import { usePaused } from '../lib/paused.ts';

const PAGES: Array<{ route: string; label: MessageKey; page: () => ReactNode; permission?: string }> = [
  { route: '/', label: 'nav.balances', page: Balances },
  { route: '/exchange', label: 'nav.exchange', page: Exchange },
  { route: '/orders', label: 'nav.orders', page: Orders },
  { route: '/deposits', label: 'nav.deposits', page: Deposits },
  { route: '/withdrawals', label: 'nav.withdrawals', page: Withdrawals },
  { route: '/ledger', label: 'nav.ledger', page: Ledger },
  { route: '/team', label: 'nav.team', page: Team },
  { route: '/api-keys', label: 'nav.apiKeys', page: ApiKeys },
  { route: '/webhooks', label: 'nav.webhooks', page: Webhooks, permission: 'portal:webhooks' },
  { route: '/policy', label: 'nav.policy', page: Policy, permission: 'portal:policy' },
  { route: '/approvals', label: 'nav.approvals', page: Approvals, permission: 'portal:approve' },
  { route: '/audit', label: 'nav.audit', page: Audit, permission: 'portal:audit' },
  { route: '/account', label: 'nav.account', page: Account },
];

function sandboxMode(): boolean {
  return document.querySelector('meta[name="cambio-mode"]')?.getAttribute('content') === 'sandbox';
}

function Shell({ children }: { children: ReactNode }) {
  const { t, sandbox, session, sdk, setSession, lang, setLang } = usePortal();
  const signOut = async () => {
    try {
      await sdk.session.signOut();
    } finally {
      setSession(null);
    }
  };
  return (
    <>
      <a className="skip" href="#main">
        {t('app.skip')}
      </a>
      {sandbox && (
        <div className="sandbox-banner" role="note">
          {t('app.sandbox')}
        </div>
      )}
      <header className="top">
        <span className="brand">{t('app.title')}</span>
        {session && (
          <span className="who">
            {session.organization.name} · {t('signin.signedInAs', { name: session.member.name })}
          </span>
        )}
        <LanguageSwitch label={t('app.language')} current={lang} onChoose={setLang} />
        {session && (
          <button type="button" className="secondary" onClick={() => void signOut()}>
            {t('signout')}
          </button>
        )}
      </header>
      {session && !session.organization.canOperate && (
        <div className="notice notice-warning" role="note">
          {t('app.cannotOperate')}
        </div>
      )}
      {session && <PlatformStop />}
      {children}
    </>
  );
}

/**
 * The stop while the books are not reconciled (docs/design/money-and-states.md), said on every page before anyone meets its
 * 409: read every 30 s, and again at once when a call answers ledger.ledger_not_reconciled.
 */
function PlatformStop() {
  const { t } = usePortal();
  if (!usePaused()) return null;
  return (
    <div className="notice notice-warning stop-banner" role="alert">
      {t('app.stopped')}
    </div>
  );
}

function SignedIn() {
  const { t, can } = usePortal();
  const { path } = useLocation();
  // An order's own page (/orders/<id>) belongs to Orders in the navigation.
  const detail = path.startsWith('/orders/') ? decodeURIComponent(path.slice('/orders/'.length)) : null;
  const page = detail !== null ? PAGES.find((p) => p.route === '/orders')! : (PAGES.find((p) => p.route === path) ?? PAGES[0]!);
  const mainRef = useRef<HTMLElement>(null);
  const first = useRef(true);
  // Move focus to the new page's content on navigation, so keyboard and screen-reader users follow.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    mainRef.current?.focus();
  }, [path]);
  const Page = page.page;
  return (
    <div className="layout">
      <nav aria-label={t('app.nav')} className="side">
        <ul>
          {PAGES.filter((p) => !p.permission || can(p.permission)).map((p) => (
            <li key={p.route}>
              <Link to={p.route} aria-current={page.route === p.route ? 'page' : undefined}>
                {t(p.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} ref={mainRef}>
        {detail !== null ? <OrderDetail id={detail} /> : <Page />}
      </main>
    </div>
  );
}

function Content({ checked }: { checked: boolean }) {
  const { session } = usePortal();
  const { path } = useLocation();
  if (path === '/invitation') return <AcceptInvitation />;
  if (path === '/forgot-password') return <ForgotPasswordPage />;
  if (path === '/reset-password') return <ResetPasswordPage />;
  if (!checked) return null;
  return session ? <SignedIn /> : <SignIn />;
}

export function App() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const [session, setSession] = useState<PortalSession | null>(null);
  const [checked, setChecked] = useState(false);
  const sdk = useMemo(() => makeSdk(lang), [lang]);
  const sessionRef = useRef(setSession);
  const queryClient = useMemo(() => {
    // A 401 on any call: the session ended (idle, sign-out elsewhere, removed): back to sign-in.
    const onError = (e: unknown) => {
      if (e instanceof CambioError && e.status === 401) sessionRef.current(null);
      if (e instanceof CambioError && e.code === 'ledger.ledger_not_reconciled') void client.invalidateQueries({ queryKey: ['platform'] });
    };
    const client: QueryClient = new QueryClient({
      queryCache: new QueryCache({ onError }),
      mutationCache: new MutationCache({ onError }),
      defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true, staleTime: 2000 } },
    });
    return client;
  }, []);

  useEffect(() => {
    let live = true;
    sdk.session
      .current()
      .then(
        (s) => {
          if (live) setSession(s);
        },
        () => {
          if (live) setSession(null);
        },
      )
      .finally(() => {
        if (live) setChecked(true);
      });
    return () => {
      live = false;
    };
    // Only at start: later changes of session come from sign-in and sign-out.
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = translator(lang)('app.title');
  }, [lang]);
  useEffect(() => {
    if (!session) queryClient.clear();
  }, [session, queryClient]);

  const value: PortalContextValue = {
    sdk,
    lang,
    session,
    sandbox: sandboxMode(),
    t: translator(lang),
    setLang: (l) => {
      rememberLang(l);
      setLangState(l);
      void queryClient.invalidateQueries();
    },
    setSession,
    can: (p) => session?.member.permissions.includes(p) ?? false,
  };
  // A stop met by an act outside a query or mutation: the banner is read again at once rather than at its next 30 s.
  const kit = useMemo<WebKit>(
    () => ({
      keyPrefix: 'portal-',
      stateWord: (s) => stateWord(lang, s),
      describeError: (e, fields) => describeError(e, lang, translator(lang), fields),
      onErrorShown: (e) => {
        if (e instanceof CambioError && e.code === 'ledger.ledger_not_reconciled')
          void queryClient.invalidateQueries({ queryKey: ['platform'] });
      },
      lang,
    }),
    [lang, queryClient],
  );
  return (
    <PortalContext.Provider value={value}>
      <WebKitContext.Provider value={kit}>
        <QueryClientProvider client={queryClient}>
          <Shell>
            <Content checked={checked} />
          </Shell>
        </QueryClientProvider>
      </WebKitContext.Provider>
    </PortalContext.Provider>
  );
}

import { ErrorBox } from '@cambio/web-kit';
import type { StaffPerson } from '@cambio/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApprovalsPage } from '../features/approvals/ApprovalsPage.tsx';
import { AuditPage } from '../features/audit/AuditPage.tsx';
import { DepositsPage } from '../features/deposits/DepositsPage.tsx';
import { MarketPage } from '../features/market/MarketPage.tsx';
import { OrganizationPage } from '../features/organizations/OrganizationPage.tsx';
import { OrganizationsPage } from '../features/organizations/OrganizationsPage.tsx';
import { ReconciliationPage } from '../features/reconciliation/ReconciliationPage.tsx';
import { LiabilitiesPage } from '../features/liabilities/LiabilitiesPage.tsx';
import { InvitationPage } from '../features/session/InvitationPage.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from '../features/session/PasswordResetPages.tsx';
import { SecurityPage } from '../features/session/SecurityPage.tsx';
import { SignInPage } from '../features/session/SignInPage.tsx';
import { StaffPage } from '../features/staff/StaffPage.tsx';
import { VenuePage } from '../features/venue/VenuePage.tsx';
import { OrderPage } from '../features/orders/OrderPage.tsx';
import { op, readMode, sessionMark } from '../lib/api.ts';
import { DeskContext } from '../lib/desk-context.ts';
import { isUnauthenticated } from '../lib/errors.ts';
import { Layout } from './Layout.tsx';
import { t } from '../lib/i18n.ts';
import { navigate, useLocation } from '../lib/router.ts';

/** Who is signed in: null when nobody is (401), re-read after sign-in, TOTP enrolment and sign-out. */
function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async (): Promise<StaffPerson | null> => {
      if (!sessionMark.get()) return null;
      try {
        return (await op.session.get()).staff;
      } catch (e) {
        if (isUnauthenticated(e)) {
          sessionMark.set(false);
          return null;
        }
        throw e;
      }
    },
    staleTime: 60_000,
  });
}

export function App() {
  const loc = useLocation();
  const qc = useQueryClient();
  const session = useSession();
  const mode = readMode();
  const signedIn = (staff: StaffPerson) => {
    sessionMark.set(true);
    qc.setQueryData(['session'], staff);
    navigate(staff.totpEnrolled ? '/approvals' : '/security', { replace: true });
  };

  if (loc.path === '/invitation') return <InvitationPage token={loc.hash} onAccepted={signedIn} />;
  if (loc.path === '/forgot-password') return <ForgotPasswordPage />;
  if (loc.path === '/reset-password') return <ResetPasswordPage />;
  if (session.isPending)
    return (
      <main id="main">
        <p role="status">{t('app.loading')}</p>
      </main>
    );
  if (session.error)
    return (
      <main id="main" className="narrow">
        <h1>{t('app.unreachable')}</h1>
        <ErrorBox error={session.error} />
      </main>
    );
  if (!session.data) return <SignInPage onSignedIn={signedIn} />;

  const staff = session.data;
  return (
    <DeskContext.Provider value={{ staff, mode }}>
      <Layout
        onSignedOut={() => {
          sessionMark.set(false);
          qc.setQueryData(['session'], null);
          navigate('/', { replace: true });
        }}
      >
        <Route path={loc.path} admin={staff.role === 'admin'} />
      </Layout>
    </DeskContext.Provider>
  );
}

function Route({ path, admin }: { path: string; admin: boolean }) {
  const org = /^\/organizations\/([^/]+)$/.exec(path);
  if (org) return <OrganizationPage id={decodeURIComponent(org[1]!)} />;
  const order = /^\/orders\/([^/]+)$/.exec(path);
  if (order) return <OrderPage id={decodeURIComponent(order[1]!)} />;
  switch (path) {
    case '/':
    case '/approvals':
      return <ApprovalsPage />;
    case '/deposits':
      return <DepositsPage />;
    case '/reconciliation':
      return <ReconciliationPage />;
    case '/liabilities':
      return <LiabilitiesPage />;
    case '/organizations':
      return <OrganizationsPage />;
    case '/market':
      return <MarketPage />;
    case '/venue':
      return <VenuePage />;
    case '/audit':
      return <AuditPage />;
    case '/security':
      return <SecurityPage />;
    case '/staff':
      if (admin) return <StaffPage />;
      break;
  }
  return (
    <>
      <h1 tabIndex={-1} id="page-title">
        {t('app.notFound')}
      </h1>
      <p>{t('app.notFoundText')}</p>
    </>
  );
}

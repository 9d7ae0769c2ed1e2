import { LanguageSwitch } from '@cambio/web-kit';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { StopBanner } from '../features/reconciliation/StopBanner.tsx';
import { op } from '../lib/api.ts';
import { chooseLang, LANG, roleWord, t, type MessageKey } from '../lib/i18n.ts';
import { useDesk } from '../lib/desk-context.ts';
import { Link, useLocation } from '../lib/router.ts';

/** docs/design/people-and-apps.md fixes these names (in English); Staff is offered to admins only. */
const NAV: Array<{ to: string; label: MessageKey; admin?: boolean }> = [
  { to: '/approvals', label: 'nav.approvals' },
  { to: '/deposits', label: 'nav.deposits' },
  { to: '/reconciliation', label: 'nav.reconciliation' },
  { to: '/liabilities', label: 'nav.liabilities' },
  { to: '/organizations', label: 'nav.organizations' },
  { to: '/market', label: 'nav.market' },
  { to: '/venue', label: 'nav.venue' },
  { to: '/audit', label: 'nav.audit' },
  { to: '/staff', label: 'nav.staff', admin: true },
];

export function Layout({ children, onSignedOut }: { children: ReactNode; onSignedOut: () => void }) {
  const { staff, mode } = useDesk();
  const { path } = useLocation();
  const qc = useQueryClient();

  // A new page: move focus to its heading so a screen reader announces it (the links do not reload).
  useEffect(() => {
    document.getElementById('page-title')?.focus({ preventScroll: true });
  }, [path]);

  const signOut = async () => {
    try {
      await op.session.signOut();
    } finally {
      qc.clear();
      onSignedOut();
    }
  };

  return (
    <>
      <a className="skip" href="#main">
        {t('app.skip')}
      </a>
      {mode === 'sandbox' && (
        <div className="banner banner-sandbox" role="note">
          <strong>{t('app.sandbox')}</strong> {t('app.sandboxText')}
        </div>
      )}
      <StopBanner linkTo={(c) => <Link to="/reconciliation">{c}</Link>} />
      {!staff.totpEnrolled && (
        <div className="banner banner-warn" role="note">
          {t('app.totp')} <Link to="/security">{t('app.security')}</Link>.
        </div>
      )}
      <header className="top">
        <span className="brand">{t('app.brand')}</span>
        <nav aria-label={t('app.nav')}>
          <ul>
            {NAV.filter((n) => !n.admin || staff.role === 'admin').map((n) => (
              <li key={n.to}>
                <Link to={n.to} aria-current={path.startsWith(n.to) ? 'page' : undefined}>
                  {t(n.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="me">
          <Link to="/security" aria-current={path === '/security' ? 'page' : undefined}>
            {staff.name} <span className="role">({roleWord(staff.role)})</span>
          </Link>
          <button type="button" onClick={signOut}>
            {t('app.signOut')}
          </button>
          <LanguageSwitch label={t('app.language')} current={LANG} onChoose={chooseLang} />
        </div>
      </header>
      <main id="main">{children}</main>
    </>
  );
}

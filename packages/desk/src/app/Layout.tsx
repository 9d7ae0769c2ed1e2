import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { StopBanner } from '../features/reconciliation/StopBanner.tsx';
import { op } from '../lib/api.ts';
import { useDesk } from '../lib/desk-context.ts';
import { Link, useLocation } from '../lib/router.tsx';

/** CONTRACT §8 fixes these names; Staff is offered to admins only. */
const NAV: Array<{ to: string; label: string; admin?: boolean }> = [
  { to: '/approvals', label: 'Approvals' },
  { to: '/deposits', label: 'Deposits' },
  { to: '/reconciliation', label: 'Reconciliation' },
  { to: '/organizations', label: 'Organizations' },
  { to: '/market', label: 'Market' },
  { to: '/audit', label: 'Audit' },
  { to: '/staff', label: 'Staff', admin: true },
];

export function Layout({ children, onSignedOut }: { children: ReactNode; onSignedOut: () => void }) {
  const { staff, mode } = useDesk();
  const { path } = useLocation();
  const qc = useQueryClient();

  // A new page: move focus to its heading so a screen reader announces it (the links do not reload).
  useEffect(() => { document.getElementById('page-title')?.focus({ preventScroll: true }); }, [path]);

  const signOut = async () => {
    try { await op.session.signOut(); } finally { qc.clear(); onSignedOut(); }
  };

  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      {mode === 'sandbox' && <div className="banner banner-sandbox" role="note"><strong>Sandbox.</strong> Simulated market and deposit addresses; no real money moves.</div>}
      <StopBanner linkTo={(c) => <Link to="/reconciliation">{c}</Link>} />
      {!staff.totpEnrolled && (
        <div className="banner banner-warn" role="note">
          Set up two-step sign-in before your first decision: <Link to="/security">Your security</Link>.
        </div>
      )}
      <header className="top">
        <span className="brand">Cambio desk</span>
        <nav aria-label="Desk">
          <ul>
            {NAV.filter((n) => !n.admin || staff.role === 'admin').map((n) => (
              <li key={n.to}><Link to={n.to} aria-current={path.startsWith(n.to) ? 'page' : undefined}>{n.label}</Link></li>
            ))}
          </ul>
        </nav>
        <div className="me">
          <Link to="/security" aria-current={path === '/security' ? 'page' : undefined}>{staff.name} <span className="role">({staff.role})</span></Link>
          <button type="button" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <main id="main">{children}</main>
    </>
  );
}

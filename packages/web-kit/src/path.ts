/**
 * The app's own path in a page address: `/desk/approvals/` under `/desk` is `/approvals`; the app's
 * root (`/desk`, `/desk/`) and any address not under it are `/`.
 */
export function pathBelow(base: string, pathname: string): string {
  const rest = pathname === base || pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : '';
  return `/${rest.replace(/^\/+|\/+$/g, '')}`;
}

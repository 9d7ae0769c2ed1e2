import { createContext, useCallback, useContext, useEffect, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

/**
 * Client-side routes under /portal/ with the History API (the server answers index.html for any of
 * them). Small on purpose: a handful of flat pages, no nested layouts.
 */
export const BASE = '/portal/';

function currentRoute(): string {
  const p = window.location.pathname;
  return p.startsWith(BASE) ? p.slice(BASE.length).replace(/\/+$/, '') : '';
}

interface RouterValue { route: string; navigate: (to: string) => void }
const RouterContext = createContext<RouterValue>({ route: '', navigate: () => {} });

export function Router({ children }: { children: ReactNode }) {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const onPop = () => setRoute(currentRoute());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: string) => {
    window.history.pushState(null, '', BASE + to);
    setRoute(to);
    window.scrollTo(0, 0);
  }, []);
  return <RouterContext.Provider value={{ route, navigate }}>{children}</RouterContext.Provider>;
}

export const useRouter = () => useContext(RouterContext);

/** A real link (opens in a new tab, works without script) that navigates in place on a plain click. */
export function Link({ to, children, ...rest }: { to: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const { route, navigate } = useRouter();
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={BASE + to} onClick={onClick} aria-current={route === to ? 'page' : undefined} {...rest}>{children}</a>;
}

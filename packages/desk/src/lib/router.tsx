import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** The app lives under /desk/; every route below it is the app's (the server answers index.html). */
export const BASE = '/desk';

export interface Location { path: string; search: URLSearchParams; hash: string }

function read(): Location {
  const p = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : window.location.pathname;
  return { path: p === '' ? '/' : p, search: new URLSearchParams(window.location.search), hash: window.location.hash.slice(1) };
}

const listeners = new Set<() => void>();

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = `${BASE}${to}`;
  if (opts.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  listeners.forEach((l) => l());
}

export function useLocation(): Location {
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const on = () => setLoc(read());
    listeners.add(on);
    window.addEventListener('popstate', on);
    return () => { listeners.delete(on); window.removeEventListener('popstate', on); };
  }, []);
  return loc;
}

/** An ordinary link (keyboard, middle click, copy address) that moves inside the app without a reload. */
export function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
    window.scrollTo(0, 0);
  };
  return <a href={`${BASE}${to}`} onClick={click} {...rest} />;
}

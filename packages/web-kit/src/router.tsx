import { pathBelow } from './path.ts';
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactElement } from 'react';

/**
 * Client-side routes of an app under `base` (`/portal`, `/desk`) with the History API; the server
 * answers the app's page for any path below it. Small on purpose: flat pages, a path and its query
 * and fragment, no nested layouts. A path is `/` or `/name…`, never with a trailing slash.
 */
export interface Location {
  path: string;
  search: URLSearchParams;
  hash: string;
}

export interface AppRouter {
  /** Goes to `to` (a path below base) in place; `replace` leaves no history entry behind. */
  navigate: (to: string, opts?: { replace?: boolean }) => void;
  useLocation: () => Location;
  /** A real link (keyboard, middle click, copy address, new tab) that moves in place on a plain click. */
  Link: (props: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) => ReactElement;
}

export function createRouter(base: string): AppRouter {
  const listeners = new Set<() => void>();
  const read = (): Location => ({
    path: pathBelow(base, window.location.pathname),
    search: new URLSearchParams(window.location.search),
    hash: window.location.hash.slice(1),
  });

  const navigate: AppRouter['navigate'] = (to, opts = {}) => {
    const url = `${base}${to}`;
    if (opts.replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    window.scrollTo(0, 0);
    listeners.forEach((l) => l());
  };

  function useLocation(): Location {
    const [loc, setLoc] = useState(read);
    useEffect(() => {
      const on = () => setLoc(read());
      listeners.add(on);
      window.addEventListener('popstate', on);
      return () => {
        listeners.delete(on);
        window.removeEventListener('popstate', on);
      };
    }, []);
    return loc;
  }

  function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
    const click = (e: MouseEvent<HTMLAnchorElement>) => {
      onClick?.(e);
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      navigate(to);
    };
    return <a href={`${base}${to}`} onClick={click} {...rest} />;
  }

  return { navigate, useLocation, Link };
}

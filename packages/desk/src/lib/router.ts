import { createRouter } from '@cambio/web-kit';

/** The desk's pages under /desk/ (the server answers its page for any of them). */
export const { navigate, useLocation, Link } = createRouter('/desk');

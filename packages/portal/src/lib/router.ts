import { createRouter } from '@cambio/web-kit';

/** The portal's pages under /portal/ (the server answers its page for any of them). */
export const { navigate, useLocation, Link } = createRouter('/portal');

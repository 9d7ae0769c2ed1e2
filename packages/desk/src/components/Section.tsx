import type { ReactNode } from 'react';

export function Page({ title, intro, children, actions }: { title: string; intro?: ReactNode; children: ReactNode; actions?: ReactNode }) {
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1} id="page-title">
          {title}
        </h1>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {intro && <p className="intro">{intro}</p>}
      {children}
    </>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

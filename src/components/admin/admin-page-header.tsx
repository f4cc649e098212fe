import type { ReactNode } from 'react';
import { Link } from 'waku';

/** The top of an admin sub-page: the way back to the dashboard, the page's title and a line about it. */
export function AdminPageHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <Link to="/admin" className="text-sm text-primary underline-offset-4 hover:underline">
        Back to the Admin Dashboard
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="text-sm text-muted-foreground">{children}</p>
    </div>
  );
}

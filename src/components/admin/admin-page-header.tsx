import type { ReactNode } from 'react';

/** The top of an admin sub-page: the way back to the dashboard, the page's title and a line about it. */
export function AdminPageHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <a href="/admin" className="text-sm text-primary underline-offset-4 hover:underline">
        Back to the Admin Dashboard
      </a>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="text-sm text-muted-foreground">{children}</p>
    </div>
  );
}

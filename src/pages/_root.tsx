import type { ReactNode } from 'react';

export default async function Root({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta name="description" content="Trade your used printer parts in for store credit." />
        <meta name="theme-color" content="#0e6b63" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">{children}</body>
    </html>
  );
}

export const getConfig = async () => ({ render: 'static' }) as const;

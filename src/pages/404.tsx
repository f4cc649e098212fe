import { Button } from '#src/components/ui/button.tsx';
import { currentUser } from '#src/lib/session.server.ts';

export default async function NotFoundPage() {
  const user = await currentUser();
  return (
    <>
      <title>Page Not Found · SwapPoints</title>
      <div className="mx-auto flex max-w-md flex-col items-center gap-4 py-16 text-center">
        <p className="text-6xl font-bold text-primary" aria-hidden="true">
          404
        </p>
        <h1 className="text-2xl font-semibold">Page Not Found</h1>
        <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
        <Button asChild>
          <a href={user ? '/dashboard' : '/'}>{user ? 'Back to Dashboard' : 'Back to Home'}</a>
        </Button>
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;

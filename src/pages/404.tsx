import { Button } from '#src/components/ui/button.tsx';
import { pageTexts } from '#src/i18n/language.server.ts';
import { currentUser } from '#src/lib/session.server.ts';

export default async function NotFoundPage() {
  const [user, { t }] = await Promise.all([currentUser(), pageTexts()]);
  return (
    <>
      <title>{`${t('notFound.title')} · SwapPoints`}</title>
      <div className="mx-auto flex max-w-md flex-col items-center gap-4 py-16 text-center">
        <p className="text-6xl font-bold text-primary" aria-hidden="true">
          404
        </p>
        <h1 className="text-2xl font-semibold">{t('notFound.title')}</h1>
        <p className="text-muted-foreground">{t('notFound.body')}</p>
        <Button asChild>
          <a href={user ? '/dashboard' : '/'}>{t(user ? 'notFound.dashboard' : 'notFound.home')}</a>
        </Button>
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;

import { VerifyEmail } from '#src/components/auth/verify-email.tsx';

/** Where the emailed sign-in link lands; the browser finishes the sign-in (the link's GET never consumes it). */
export default async function VerifyEmailPage() {
  return (
    <>
      <title>Signing in · SwapPoints</title>
      <meta name="referrer" content="no-referrer" />
      <div className="mx-auto max-w-md">
        <VerifyEmail />
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;

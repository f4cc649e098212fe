import { LegalPage } from '#src/components/legal/legal-page.tsx';

export default function TermsPage() {
  return <LegalPage which="terms" />;
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;

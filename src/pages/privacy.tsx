import { LegalPage } from '#src/components/legal/legal-page.tsx';

export default function PrivacyPage() {
  return <LegalPage which="privacy" />;
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;

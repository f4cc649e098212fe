import { ArrowLeft, Plus } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Link } from 'waku';
import { Button } from '#src/components/ui/button.tsx';

/** The arrow at the start of a customer page's title row; `label` says where it goes. */
export function BackLink({ to, label }: { to: ComponentProps<typeof Link>['to']; label: string }) {
  return (
    <Button asChild variant="ghost" size="icon">
      <Link to={to} aria-label={label}>
        <ArrowLeft aria-hidden="true" />
      </Link>
    </Button>
  );
}

/** 'New Exchange' (or `label`, the page's text for it): to /exchange/new. */
export function NewExchangeLink({ label = 'New Exchange' }: { label?: string }) {
  return (
    <Button asChild>
      <Link to="/exchange/new">
        <Plus aria-hidden="true" />
        {label}
      </Link>
    </Button>
  );
}

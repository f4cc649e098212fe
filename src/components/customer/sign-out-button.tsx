'use client';

import { LogOut } from 'lucide-react';
import { logout } from '#src/components/layout/logout.ts';
import { Button } from '#src/components/ui/button.tsx';

export function SignOutButton({ label = 'Sign Out' }: { label?: string }) {
  return (
    <Button type="button" variant="outline" onClick={() => void logout()}>
      <LogOut aria-hidden="true" />
      {label}
    </Button>
  );
}

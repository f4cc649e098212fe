'use client';

import { useId, useTransition } from 'react';
import { useRouter } from 'waku';
import { Label } from '#src/components/ui/label.tsx';
import { NativeSelect } from '#src/components/ui/select.tsx';
import { adminHref, type AdminView } from './admin-url.ts';

/** "Rows per page": choosing a size goes back to the first page at that size. */
export function PageSizeSelect({ view, sizes }: { view: AdminView; sizes: readonly number[] }) {
  const router = useRouter();
  const id = useId();
  const [pending, startTransition] = useTransition();
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id} className="font-normal whitespace-nowrap text-muted-foreground">
        Rows per page
      </Label>
      <NativeSelect
        id={id}
        wrapperClassName="w-20"
        value={view.pageSize}
        disabled={pending}
        onChange={(event) => {
          const pageSize = Number(event.target.value);
          startTransition(async () => {
            await router.push(adminHref({ tab: view.tab, q: view.q, pageSize, sort: view.sort, order: view.order, flagged: view.flagged }));
          });
        }}
      >
        {sizes.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

import type * as React from 'react';

import { fieldClassName } from '#src/components/ui/input.tsx';
import { cn } from '#src/lib/cn.ts';

export function Textarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(fieldClassName, 'flex min-h-16 resize-y px-3 py-2', className)}
      {...props}
    />
  );
}

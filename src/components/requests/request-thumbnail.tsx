import { ImageOff } from 'lucide-react';
import { responsiveImage } from '#api/modules/images/rules.ts';
import { cn } from '#src/lib/cn.ts';

/** The request's first photo as a square thumbnail, or a placeholder when it has none. */
export function RequestThumbnail({
  images,
  productName,
  className,
}: {
  images: { url: string }[];
  productName: string;
  className?: string;
}) {
  const first = images[0];
  return (
    <span className={cn('flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted', className)}>
      {first ? (
        <img {...responsiveImage(first.url, '64px')} alt={productName} loading="lazy" decoding="async" className="size-full object-cover" />
      ) : (
        <ImageOff className="size-6 text-muted-foreground" aria-label="No photo" />
      )}
    </span>
  );
}

import type { Language } from '#api/modules/users/rules.ts';
import { ImageGallery } from '#src/components/requests/image-gallery.tsx';
import { t, textWith } from '#src/i18n/t.ts';
import { formatDate } from '#src/lib/requests.ts';

/** The request's photos, or when they were deleted under the retention rule (PHOTO_RETENTION_DAYS). */
export function RequestPhotos({
  request,
  locale,
  lang = 'en',
}: {
  request: { images: { url: string; publicId: string }[]; productName: string; photosRemovedAt: string | null };
  locale: string;
  lang?: Language;
}) {
  if (request.photosRemovedAt) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="photos-removed">
        {textWith(t(lang, 'photos.removed'), {
          date: <time dateTime={request.photosRemovedAt}>{formatDate(request.photosRemovedAt, locale)}</time>,
          notice: (
            <a href="/privacy" className="underline underline-offset-4">
              {t(lang, 'photos.notice')}
            </a>
          ),
        })}
      </p>
    );
  }
  return <ImageGallery images={request.images} productName={request.productName} lang={lang} />;
}

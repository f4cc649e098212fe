import { ImageGallery } from '#src/components/requests/image-gallery.tsx';
import { formatDate } from '#src/lib/requests.ts';

/** The request's photos, or when they were deleted under the retention rule (PHOTO_RETENTION_DAYS). */
export function RequestPhotos({ request, locale }: { request: { images: { url: string; publicId: string }[]; productName: string; photosRemovedAt: string | null }; locale: string }) {
  if (request.photosRemovedAt) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="photos-removed">
        Photos removed on <time dateTime={request.photosRemovedAt}>{formatDate(request.photosRemovedAt, locale)}</time>: we delete them a while after a request
        is closed, as our <a href="/privacy" className="underline underline-offset-4">privacy notice</a> says.
      </p>
    );
  }
  return <ImageGallery images={request.images} productName={request.productName} />;
}

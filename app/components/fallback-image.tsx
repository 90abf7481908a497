import { type ReactNode, useCallback, useState } from "react";

/**
 * An uploaded image whose file may be gone (deleted from the disk, lost in a
 * restore, a bucket emptied): when it cannot be loaded, `fallback` is shown
 * instead. The image may fail before the page's script runs, so a server-
 * rendered image is checked when the component attaches, not only on `error`.
 */
export function FallbackImage({
  src,
  alt,
  className,
  fallback = null,
}: {
  src: string;
  alt: string;
  className?: string;
  fallback?: ReactNode;
}) {
  // Remembered per address, so a new image gets its own chance.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const attach = useCallback((image: HTMLImageElement | null) => {
    if (image?.complete && image.naturalWidth === 0) setFailedSrc(image.getAttribute("src"));
  }, []);
  if (failedSrc === src) return <>{fallback}</>;
  return <img ref={attach} src={src} alt={alt} className={className} onError={() => setFailedSrc(src)} />;
}

import { FallbackImage } from "~/components/fallback-image";
import { cn } from "~/lib/cn";
import { initials } from "~/lib/names";

const SIZES = {
  sm: "size-9 text-sm",
  md: "size-12 text-base",
  lg: "size-20 text-2xl",
  xl: "size-28 text-3xl",
};

/**
 * The person's photo over their initials on the brand gradient. The initials
 * are always there underneath: a photo whose file is gone (or that is still
 * loading, or a page without script) leaves them showing, never an empty circle.
 */
export function Avatar({
  person,
  photoUrl,
  size = "md",
  className,
}: {
  person: { firstName: string; lastName: string };
  photoUrl?: string | null;
  size?: keyof typeof SIZES;
  className?: string;
}) {
  return (
    <span
      data-testid="avatar"
      className={cn(
        "brand-gradient relative inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full font-semibold text-on-banner",
        SIZES[size],
        className,
      )}
    >
      <span aria-hidden>{initials(person)}</span>
      {photoUrl ? (
        <FallbackImage src={photoUrl} alt="" className="absolute inset-0 size-full rounded-full object-cover" />
      ) : null}
    </span>
  );
}

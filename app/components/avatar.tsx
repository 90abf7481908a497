import { cn } from "~/lib/cn";
import { initials } from "~/lib/names";

const SIZES = {
  sm: "size-9 text-sm",
  md: "size-12 text-base",
  lg: "size-20 text-2xl",
  xl: "size-28 text-3xl",
};

/** The person's photo, or their initials on the brand gradient. */
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
  const base = cn("shrink-0 rounded-full object-cover", SIZES[size], className);
  if (photoUrl) {
    return <img src={photoUrl} alt="" className={base} />;
  }
  return (
    <span
      aria-hidden
      className={cn(base, "brand-gradient inline-flex items-center justify-center font-semibold text-white")}
    >
      {initials(person)}
    </span>
  );
}

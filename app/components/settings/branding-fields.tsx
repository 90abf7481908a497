import type { FieldErrors } from "~/lib/action-result";
import { MAX_SITE_IMAGE_BYTES, SITE_IMAGE_TOO_LARGE } from "~/lib/limits";
import { DEFAULT_SETTINGS, FONT_FAMILIES } from "~/lib/settings";
import { ColorField } from "../color-field";
import { SelectField } from "../forms";
import { ImagePicker } from "../image-picker";

const LOGO_HINT = "JPG, PNG or WebP up to 2MB. A transparent background works best.";
const FAVICON_HINT = "JPG, PNG or WebP up to 2MB, at least 32 × 32 pixels. Square images work best.";

/** The site's own images, each uploaded through its picker. */
const SITE_IMAGES = [
  { name: "primaryLogo", label: "Logo", shape: "logo", hint: LOGO_HINT },
  {
    name: "darkModeLogo",
    label: "Dark-mode logo",
    shape: "logo",
    surface: "dark",
    hint: `${LOGO_HINT} Shown in dark mode; without it, the logo is.`,
  },
  { name: "favicon", label: "Favicon", shape: "square", hint: FAVICON_HINT },
  { name: "footerLogo", label: "Footer logo", shape: "logo", hint: LOGO_HINT },
] as const;

const COLORS = [
  ["primaryColor", "Primary colour"],
  ["secondaryColor", "Secondary colour"],
  ["accentColor", "Accent colour"],
] as const;

export type BrandingValues = Record<(typeof COLORS)[number][0] | "fontFamily", string>;
export type SiteImageUrls = Record<(typeof SITE_IMAGES)[number]["name"], string | null>;

/**
 * The site's colours, font and images. `savedAt` starts the pickers afresh
 * after each save, so a file once sent is not sent again.
 */
export function BrandingFields({
  values,
  images,
  savedAt,
  errors,
}: {
  values: BrandingValues;
  images: SiteImageUrls;
  savedAt: string;
  errors?: FieldErrors;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        {COLORS.map(([name, label]) => (
          <ColorField
            key={name}
            name={name}
            label={label}
            stored={values[name]}
            fallback={DEFAULT_SETTINGS[name]}
            errors={errors?.[name]}
          />
        ))}
      </div>
      <SelectField
        label="Font"
        name="fontFamily"
        defaultValue={values.fontFamily || "Inter"}
        errors={errors?.fontFamily}
        options={FONT_FAMILIES.map((font) => ({ value: font, label: font }))}
      />
      <fieldset className="space-y-5">
        <legend className="mb-1 text-base font-semibold">Logos and favicon</legend>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Uploaded to this site and served from it, so no visitor's browser is sent anywhere else. The logo appears
          beside the company name in the header, on the sign-in screen and on error pages.
        </p>
        <div className="grid gap-6 lg:grid-cols-2">
          {SITE_IMAGES.map(({ name, ...picker }) => (
            <ImagePicker
              key={`${name} ${images[name]} ${savedAt}`}
              name={name}
              currentUrl={images[name]}
              errors={errors?.[name]}
              maxBytes={MAX_SITE_IMAGE_BYTES}
              tooLarge={SITE_IMAGE_TOO_LARGE}
              {...picker}
            />
          ))}
        </div>
      </fieldset>
    </>
  );
}

/** Limits the browser states and the server enforces; no schema library here, so pages stay light. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** "JPG, PNG or WebP up to 5MB": stated on the picker, enforced on the server. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TOO_LARGE = "The image is larger than 5MB. Choose a smaller one.";

/**
 * The site's own images (logos, favicon): small files by nature, and the
 * settings form carries four of them at once.
 */
export const MAX_SITE_IMAGE_BYTES = 2 * 1024 * 1024;
export const SITE_IMAGE_TOO_LARGE = "The image is larger than 2MB. Choose a smaller one.";

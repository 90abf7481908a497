/** The public URL of a stored upload key (or an absolute URL kept as it is). */
export function mediaUrl(key: string | null | undefined): string | null {
  if (!key) return null;
  if (/^https?:\/\//.test(key) || key.startsWith("/")) return key;
  return `/uploads/${key}`;
}

/** The word after a view count: "1 view", "2 views". */
export function viewsWord(count: number): string {
  return count === 1 ? "view" : "views";
}

/**
 * The word as a page renders it (components/views-word.tsx). A card page cached
 * for reuse is rendered with a placeholder count (server/page-cache.ts), so
 * its word is found by this markup and follows the count each visitor is shown.
 */
export function viewsWordMarkup(word: string): string {
  return `data-views-word="">${word}<`;
}

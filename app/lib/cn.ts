import { twMerge } from "tailwind-merge";

/**
 * Joins class names, skipping falsy ones, and resolves Tailwind conflicts so
 * the last class wins: a caller's `px-2` or `text-red-700` overrides the
 * component's own.
 */
export function cn(...classes: (string | false | null | undefined)[]): string {
  return twMerge(classes);
}

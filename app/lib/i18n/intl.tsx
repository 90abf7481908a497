import { type ReactNode, useCallback } from "react";
import { useIntl } from "react-intl";
import type { MessageId } from "~/locales/en";

declare global {
  namespace FormatjsIntl {
    // Every message is looked up by a key of the English catalog: a mistyped key fails the type check.
    interface Message {
      ids: MessageId;
    }
  }
}

type Values = Record<string, string | number>;

/** The page's words: `t(key, values)` in the page's language. */
export function useT() {
  const intl = useIntl();
  return useCallback((id: MessageId, values?: Values) => intl.formatMessage({ id }, values), [intl]);
}

/** A message with <b>…</b> in it, the bold part in <strong>. */
export function useRich() {
  const intl = useIntl();
  return useCallback(
    (id: MessageId, values?: Values): ReactNode =>
      intl.formatMessage({ id }, { ...values, b: (chunks: ReactNode[]) => <strong>{chunks}</strong> }),
    [intl],
  );
}

/**
 * A message without placeholders, for a route's `meta` (which runs outside
 * React): read from the page's catalog, which the root's data carries.
 */
export function plainMessage(matches: readonly ({ id: string; data?: unknown } | undefined)[], id: MessageId): string {
  const root = matches.find((match) => match?.id === "root")?.data as { messages?: Partial<Record<MessageId, string>> };
  return root?.messages?.[id] ?? id;
}

import { Check, Copy, Download, Share2, UserPlus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button, buttonClasses } from "~/components/ui/button";
import { useT } from "~/lib/i18n/intl";

/** 'Copied' and 'Link Copied' feedback lasts 2 seconds. */
const COPIED_FEEDBACK_MS = 2000;

function useTimedFlag(): [boolean, () => void] {
  const [on, setOn] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [
    on,
    () => {
      setOn(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setOn(false), COPIED_FEEDBACK_MS);
    },
  ];
}

/** Copies text; when the clipboard refuses, shows it for manual copying (`prompt` asks for that). */
async function copyText(text: string, prompt: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    window.prompt(prompt, text);
    return false;
  }
}

/**
 * 'Save Contact': a plain download link without JavaScript; with it, the file
 * is fetched, saved, and a confirmation is shown.
 */
export function SaveContactButton({
  href,
  fileName,
  firstName,
}: {
  href: string;
  fileName: string;
  firstName: string;
}) {
  const [saving, setSaving] = useState(false);
  const t = useT();
  const saved = t("actions.saved", { name: firstName });
  const failed = t("actions.saveFailed");
  return (
    <a
      href={href}
      download={fileName}
      // What the card's own script says without the app (app/lib/card-script.ts).
      data-save={saved}
      data-save-failed={failed}
      aria-disabled={saving || undefined}
      className={buttonClasses("primary", "lg", "w-full sm:flex-1")}
      onClick={async (event) => {
        event.preventDefault();
        if (saving) return;
        setSaving(true);
        try {
          const response = await fetch(href);
          if (!response.ok) throw new Error(String(response.status));
          const url = URL.createObjectURL(await response.blob());
          const link = document.createElement("a");
          link.href = url;
          link.download = fileName;
          document.body.append(link);
          link.click();
          link.remove();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
          window.alert(saved);
        } catch {
          window.alert(failed);
        } finally {
          setSaving(false);
        }
      }}
    >
      <UserPlus aria-hidden className="size-5" />
      {saving ? t("actions.saving") : t("actions.saveContact")}
    </a>
  );
}

/**
 * 'Share Profile': the native share sheet where there is one, else copy.
 * Without JavaScript (no share sheet, no clipboard) the link itself is shown,
 * in a read-only field to select and copy.
 */
export function ShareButton({ url, title }: { url: string; title: string }) {
  const [sharing, setSharing] = useState(false);
  const [copied, flagCopied] = useTimedFlag();
  const t = useT();
  return (
    <>
      <label className="hidden min-w-0 flex-col gap-1 text-sm no-js:flex sm:flex-1">
        <span className="font-medium text-slate-600 dark:text-slate-300">{t("actions.linkToCard")}</span>
        <input
          type="url"
          readOnly
          value={url}
          className="h-11 w-full min-w-0 rounded-xl border border-slate-300 bg-white px-3 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        />
      </label>
      <Button
        variant="secondary"
        size="lg"
        className="w-full no-js:hidden sm:flex-1"
        data-share={url}
        data-title={title}
        data-copied={t("actions.linkCopied")}
        data-prompt={t("actions.copyPrompt")}
        disabled={sharing}
        onClick={async () => {
          setSharing(true);
          try {
            if (typeof navigator.share === "function") {
              try {
                await navigator.share({ title, url });
                return;
              } catch (error) {
                // The person closed the sheet: nothing to do.
                if ((error as DOMException).name === "AbortError") return;
              }
            }
            if (await copyText(url, t("actions.copyPrompt"))) flagCopied();
          } finally {
            setSharing(false);
          }
        }}
      >
        <Share2 aria-hidden className="size-5" />
        <span aria-live="polite">
          {sharing ? t("actions.sharing") : copied ? t("actions.linkCopied") : t("actions.shareProfile")}
        </span>
      </Button>
    </>
  );
}

export function CopyLinkButton({ url }: { url: string }) {
  const [copied, flagCopied] = useTimedFlag();
  const t = useT();
  return (
    <Button
      variant="secondary"
      className="flex-1 px-3 whitespace-nowrap no-js:hidden"
      data-copy={url}
      data-copied={t("actions.copied")}
      data-prompt={t("actions.copyPrompt")}
      onClick={async () => {
        if (await copyText(url, t("actions.copyPrompt"))) flagCopied();
      }}
    >
      {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
      <span aria-live="polite">{copied ? t("actions.copied") : t("actions.copyLink")}</span>
    </Button>
  );
}

export function DownloadQrLink({ href, fileName }: { href: string; fileName: string }) {
  const t = useT();
  return (
    <a href={href} download={fileName} className={buttonClasses("secondary", "md", "flex-1 px-3 whitespace-nowrap")}>
      <Download aria-hidden className="size-4" />
      {t("actions.downloadQr")}
    </a>
  );
}

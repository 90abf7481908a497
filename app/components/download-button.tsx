import { Download } from "lucide-react";
import { useState } from "react";
import { buttonClasses } from "~/components/ui/button";
import { showToast } from "~/lib/toast";

/** The file name a response offers in its Content-Disposition, or `fallback`. */
function offeredName(response: Response, fallback: string): string {
  const disposition = response.headers.get("content-disposition") ?? "";
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/**
 * A link that downloads a file. With JavaScript the file is fetched first, so
 * the person is told whether it worked (`done`, or the export failure message);
 * without it, the browser downloads it as a plain link.
 */
export function DownloadButton({ href, label, done }: { href: string; label: string; done: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <a
      href={href}
      download
      aria-busy={busy || undefined}
      className={buttonClasses("primary")}
      onClick={async (event) => {
        event.preventDefault();
        if (busy) return;
        setBusy(true);
        try {
          const response = await fetch(href, { headers: { accept: "text/csv" } });
          if (!response.ok) throw new Error(`The export answered ${response.status}`);
          const url = URL.createObjectURL(await response.blob());
          const link = document.createElement("a");
          link.href = url;
          link.download = offeredName(response, href.split("/").pop() ?? "export.csv");
          link.click();
          setTimeout(() => URL.revokeObjectURL(url), 60_000);
          showToast(done);
        } catch {
          showToast("Failed to export data. Please try again.", "error");
        } finally {
          setBusy(false);
        }
      }}
    >
      <Download aria-hidden className="size-4" />
      {label}
    </a>
  );
}

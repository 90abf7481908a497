import {
  Check,
  Copy,
  Download,
  EllipsisVertical,
  Mail,
  QrCode,
  Share as ShareIcon,
  Smartphone,
  Video,
  Wallet,
} from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { notFound } from "~/.server/http/responses";
import { cardUrl } from "~/.server/profiles/qr";
import { signatureOfCard } from "~/.server/profiles/signature";
import { appleWalletReady } from "~/.server/wallet/apple";
import { googleWalletReady } from "~/.server/wallet/google";
import { CopyField } from "~/components/copy-field";
import { PageHeader } from "~/components/page-header";
import { Button, buttonClasses } from "~/components/ui/button";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/share";

export const meta: Route.MetaFunction = () => [{ title: "Share my card" }];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const username = viewer.profile?.username;
  const signature = username ? await signatureOfCard(username) : null;
  if (!username || !signature) notFound("You have no card to share yet.");
  return {
    username,
    address: cardUrl(username),
    googleWallet: await googleWalletReady(),
    appleWallet: await appleWalletReady(),
    signature,
    secure: cardUrl(username).startsWith("https://"),
  };
}

const SECTION =
  "space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900";

/** "Share my card": every way to hand out the card, each with what it is for. */
export default function Share({ loaderData }: Route.ComponentProps) {
  const { username, address, signature, secure, googleWallet, appleWallet } = loaderData;
  return (
    <div className="max-w-4xl space-y-6">
      <PageHeader
        title="Share my card"
        description="Hand out your card wherever you are: by its link and QR code, at the bottom of every e-mail, and behind you on video calls."
      />

      <section aria-labelledby="link-title" className={SECTION}>
        <div className="flex items-start gap-3">
          <QrCode aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-ink" />
          <div className="space-y-1">
            <h2 id="link-title" className="text-lg font-semibold">
              Link and QR code
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Send the link in a chat, or let someone scan the code from your screen: it opens your card, and their
              phone can save you as a contact from there.
            </p>
          </div>
        </div>
        <CopyField id="card-address" label="Your card's address" value={address} />
        <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
          <img
            src={`/profile/${encodeURIComponent(username)}/qr.png`}
            alt={`QR code of ${address}`}
            width={160}
            height={160}
            className="rounded-lg border border-slate-200 bg-white p-1 dark:border-slate-700"
          />
          <div className="flex flex-wrap gap-2">
            <Link to={`/qr/${encodeURIComponent(username)}`} className={buttonClasses("primary")}>
              <QrCode aria-hidden className="size-4" />
              Show my QR code
            </Link>
            <a href={`/profile/${encodeURIComponent(username)}/qr.png`} download className={buttonClasses("secondary")}>
              <Download aria-hidden className="size-4" />
              Download the QR code
            </a>
          </div>
        </div>
      </section>

      <section aria-labelledby="home-screen-title" className={SECTION}>
        <div className="flex items-start gap-3">
          <Smartphone aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-ink" />
          <div className="space-y-1">
            <h2 id="home-screen-title" className="text-lg font-semibold">
              On your phone, without a network
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Open your card once on your phone while signed in: from then on it and its QR code open without a network,
              in a hall with no signal too. Put it on your home screen to show it in one tap.
            </p>
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-2">
            <h3 className="text-sm font-semibold">iPhone and iPad (Safari)</h3>
            <ol className="list-decimal space-y-1 ps-5 text-sm text-slate-600 dark:text-slate-400">
              <li>Open your card.</li>
              <li>
                Tap Share <ShareIcon aria-hidden className="inline size-4 align-text-bottom" />, then Add to Home
                Screen.
              </li>
              <li>Tap Add.</li>
            </ol>
          </div>
          <div className="space-y-2">
            <h3 className="text-sm font-semibold">Android (Chrome)</h3>
            <ol className="list-decimal space-y-1 ps-5 text-sm text-slate-600 dark:text-slate-400">
              <li>Open your card.</li>
              <li>
                Tap the menu <EllipsisVertical aria-hidden className="inline size-4 align-text-bottom" />, then Add to
                Home screen.
              </li>
              <li>Tap Add, or Install.</li>
            </ol>
          </div>
        </div>
        <Link to={`/profile/${encodeURIComponent(username)}`} className={buttonClasses("secondary")}>
          Open my card
        </Link>
      </section>

      {googleWallet || appleWallet ? (
        <section aria-labelledby="wallet-title" className={SECTION}>
          <div className="flex items-start gap-3">
            <Wallet aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-ink" />
            <div className="space-y-1">
              <h2 id="wallet-title" className="text-lg font-semibold">
                Phone wallet
              </h2>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                Keep your card in your phone's wallet, with its QR code: it opens without a network, at a fair or on a
                train.
              </p>
            </div>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            {appleWallet ? (
              <a href="/share/apple-wallet.pkpass" className={buttonClasses("primary")}>
                <Wallet aria-hidden className="size-4" />
                Add to Apple Wallet
              </a>
            ) : null}
            {googleWallet ? (
              <a href="/share/google-wallet" className={buttonClasses(appleWallet ? "secondary" : "primary")}>
                <Wallet aria-hidden className="size-4" />
                Save to Google Wallet
              </a>
            ) : null}
          </div>
        </section>
      ) : null}

      <section aria-labelledby="signature-title" className={SECTION}>
        <div className="flex items-start gap-3">
          <Mail aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-ink" />
          <div className="space-y-1">
            <h2 id="signature-title" className="text-lg font-semibold">
              E-mail signature
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Your name, title, company and a link to your card at the end of every mail, in your brand's colour. It
              shows only what your card shows to anyone.
            </p>
          </div>
        </div>
        <iframe
          src="/share/signature.html"
          title="Your e-mail signature, as mail programs show it"
          sandbox=""
          className="h-48 w-full rounded-lg border border-slate-200 bg-white dark:border-slate-700"
        />
        <div className="flex flex-wrap gap-2">
          <CopySignatureButton html={signature.html} text={signature.text} />
          <a href="/share/signature.html?download" className={buttonClasses("secondary")}>
            <Download aria-hidden className="size-4" />
            Download as HTML
          </a>
        </div>
        <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-400">
          <li>
            <strong>Gmail</strong>: Settings → See all settings → Signature → Create new, then paste.
          </li>
          <li>
            <strong>Outlook</strong>: Settings → Mail → Compose and reply → Email signature, then paste.
          </li>
          <li>
            <strong>Apple Mail</strong>: Settings → Signatures → +, untick “Always match my default message font”, then
            paste.
          </li>
        </ol>
        {secure ? null : (
          <p className="text-sm text-amber-800 dark:text-amber-300">
            This server's address is not https: many mail programs will not load the signature's images.
          </p>
        )}
        <details className="text-sm">
          <summary className="cursor-pointer font-medium">Plain-text version</summary>
          <textarea
            readOnly
            aria-label="Plain-text signature"
            value={signature.text}
            rows={6}
            className="mt-2 w-full rounded-lg border border-slate-300 bg-slate-50 p-3 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
          />
        </details>
      </section>

      <section aria-labelledby="background-title" className={SECTION}>
        <div className="flex items-start gap-3">
          <Video aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-ink" />
          <div className="space-y-1">
            <h2 id="background-title" className="text-lg font-semibold">
              Video-call background
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Your name, title and brand behind you on Teams, Zoom or Meet, with a QR code of your card that the people
              you talk to can scan from their screen. The middle stays clear for you.
            </p>
          </div>
        </div>
        <img
          src="/share/background-1280.png"
          alt="Your video-call background"
          width={1280}
          height={720}
          loading="lazy"
          className="h-auto w-full rounded-lg border border-slate-200 dark:border-slate-700"
        />
        <div className="flex flex-wrap gap-2">
          <a href="/share/background-1920.png?download" className={buttonClasses("primary")}>
            <Download aria-hidden className="size-4" />
            Download 1920 × 1080
          </a>
          <a href="/share/background-1280.png?download" className={buttonClasses("secondary")}>
            <Download aria-hidden className="size-4" />
            Download 1280 × 720
          </a>
        </div>
      </section>
    </div>
  );
}

/** Puts the rich signature on the clipboard (and its text for plain editors); needs JavaScript. */
function CopySignatureButton({ html, text }: { html: string; text: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const [scripted, setScripted] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    setScripted(true);
    return () => clearTimeout(timer.current);
  }, []);
  if (!scripted) return null;
  return (
    <>
      <Button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.write([
              new ClipboardItem({
                "text/html": new Blob([html], { type: "text/html" }),
                "text/plain": new Blob([text], { type: "text/plain" }),
              }),
            ]);
            setState("copied");
          } catch {
            setState("failed");
          }
          clearTimeout(timer.current);
          timer.current = setTimeout(() => setState("idle"), 3000);
        }}
      >
        {state === "copied" ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
        {state === "copied" ? "Copied" : "Copy signature"}
      </Button>
      <span aria-live="polite" className="sr-only">
        {state === "copied" ? "Signature copied" : state === "failed" ? "The browser did not allow copying" : ""}
      </span>
      {state === "failed" ? (
        <p className="w-full text-sm text-red-700 dark:text-red-400">
          Your browser did not allow copying: download the HTML file, open it and copy the signature from there.
        </p>
      ) : null}
    </>
  );
}

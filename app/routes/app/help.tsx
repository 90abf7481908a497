import { Contact, PencilLine, QrCode, Share2, UserCheck } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "~/components/page-header";
import { useSite } from "~/lib/site";
import type { Route } from "./+types/help";

export const meta: Route.MetaFunction = () => [{ title: "Help" }];

const TOPICS = [
  {
    id: "edit",
    title: "Editing your card",
    Icon: PencilLine,
    body: (
      <>
        <p>
          Open <Link to="/profile/edit">Edit Profile</Link> to change your name, job title, email, phone, bio, LinkedIn
          address and brand. Add a photo by dragging it onto the picture area or by clicking it: JPG, PNG or WebP up to
          5MB. Then drag it (or use the arrow keys) and zoom to choose what shows in the circle; that is what is saved.
        </p>
        <p>
          Your username is the last part of your card's address. Choose it with care: if you change it, links and QR
          codes printed with the old one stop working.
        </p>
      </>
    ),
  },
  {
    id: "share",
    title: "Sharing your card",
    Icon: Share2,
    body: (
      <>
        <p>
          Your card has a public address, <code>/profile/your-username</code>, that anyone can open without an account.
          On your card, <strong>Share Profile</strong> opens your phone's share sheet, or copies the link when the
          browser has none.
        </p>
        <p>
          <strong>Mobile QR</strong> shows a large QR code to hold up to someone's camera at a stand or a meeting;
          <strong> Download QR</strong> saves it as an image for slides, badges and email signatures.
        </p>
      </>
    ),
  },
  {
    id: "save",
    title: "Saving a contact",
    Icon: Contact,
    body: (
      <>
        <p>
          On any card, <strong>Save Contact</strong> downloads a contact file (vCard). On an iPhone, open it and tap
          <em> Add to Contacts</em>; on Android, open it from the notification or the Downloads folder and choose your
          contacts app; on a computer, double-click it to add it to your address book.
        </p>
        <p>Scanning a card's QR code with the phone's camera opens the card, from where the contact can be saved.</p>
      </>
    ),
  },
  {
    id: "claim",
    title: "Claiming a card prepared for you",
    Icon: UserCheck,
    body: (
      <>
        <p>
          An administrator may have prepared your card before you joined. To make it yours, sign up with the same email
          address the administrator used, then open the confirmation link we email you. Once your address is confirmed,
          the card, its views and its address become yours.
        </p>
        <p>
          If you signed up and see <em>Profile Setup in Progress</em>, ask an administrator to check which address your
          card was prepared under.
        </p>
      </>
    ),
  },
  {
    id: "qr",
    title: "QR codes that keep working",
    Icon: QrCode,
    body: (
      <p>
        A QR code points at your card's address, so it shows your latest details whenever it is scanned: update your
        card and every printed code follows.
      </p>
    ),
  },
];

export default function Help() {
  const site = useSite();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Help" description={`How to get the most out of ${site.companyName}.`} />
      <nav aria-label="Help topics" className="mb-8 flex flex-wrap gap-2">
        {TOPICS.map((topic) => (
          <a
            key={topic.id}
            href={`#${topic.id}`}
            className="rounded-full border border-slate-200 bg-white px-3 py-1 text-sm hover:border-brand hover:text-brand-ink dark:border-slate-700 dark:bg-slate-900"
          >
            {topic.title}
          </a>
        ))}
      </nav>
      <div className="space-y-4">
        {TOPICS.map(({ id, title, Icon, body }) => (
          <section
            key={id}
            id={id}
            aria-labelledby={`${id}-title`}
            className="scroll-mt-24 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <h2 id={`${id}-title`} className="mb-3 flex items-center gap-3 text-lg font-semibold">
              <span className="flex size-9 items-center justify-center rounded-lg bg-brand/10 text-brand-ink">
                <Icon aria-hidden className="size-5" />
              </span>
              {title}
            </h2>
            <div className="space-y-3 text-slate-700 dark:text-slate-300 [&_a]:font-medium [&_a]:text-brand-ink [&_a]:underline-offset-2 hover:[&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 dark:[&_code]:bg-slate-800">
              {body}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}

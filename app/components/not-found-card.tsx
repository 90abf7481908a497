import { UserX } from "lucide-react";
import { StatusPage } from "~/components/status-page";

/** A card that does not exist: a member goes on to `member`, a visitor is never sent to sign in. */
export function NotFoundCard({ text, member }: { text: string; member: { to: string; label: string } }) {
  return (
    <StatusPage icon={<UserX aria-hidden className="size-7" />} title="Profile not found" member={member}>
      <p>{text}</p>
    </StatusPage>
  );
}

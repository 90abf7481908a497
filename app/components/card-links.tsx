import {
  AtSign,
  CalendarClock,
  Camera,
  Code,
  Globe,
  Link as LinkIcon,
  type LucideIcon,
  MessagesSquare,
  SquarePlay,
  ThumbsUp,
} from "lucide-react";
import { type CardLink, LINK_KINDS, type LinkKind } from "~/lib/card-fields";

/** The icon each kind of link is shown with. */
export const LINK_ICONS: Record<LinkKind, LucideIcon> = {
  website: Globe,
  x: AtSign,
  github: Code,
  instagram: Camera,
  youtube: SquarePlay,
  facebook: ThumbsUp,
  mastodon: MessagesSquare,
  booking: CalendarClock,
  other: LinkIcon,
};

/** An address as people read it: without the scheme and a trailing slash. */
export function addressLabel(url: string) {
  return url.replace(/^https?:\/\//i, "").replace(/\/$/, "");
}

/** What a link is called on a card: its kind ("Website", "GitHub", "Link" for any other), its address beside it. */
export function linkLabel(link: CardLink) {
  return LINK_KINDS[link.kind];
}

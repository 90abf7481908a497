import { readPhotoJpeg } from "../platform/images";
import type { cardForViewer } from "./get-card";
import { cardUrl } from "./qr";
import { buildVCard } from "./vcard";

type ShownCard = Awaited<ReturnType<typeof cardForViewer>>;

/** A card's contact file as one viewer may see it (`cardForViewer`), with its photo and address. */
export async function contactFileOf(card: ShownCard): Promise<string> {
  const photo = await readPhotoJpeg(card.profilePhoto);
  return buildVCard({
    firstName: card.firstName,
    lastName: card.lastName,
    organization: card.brand?.name ?? null,
    details: card,
    cardUrl: cardUrl(card.username),
    photoJpegBase64: photo ? Buffer.from(photo).toString("base64") : null,
  });
}

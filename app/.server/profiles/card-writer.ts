import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { fullName } from "~/lib/names";
import { type AuditChanges, type ConnectionAuthor, changedFields, recordAdminAction } from "../audit/record";
import { brandPlacement } from "../brands/domains";
import type { Actor } from "../platform/actor";
import { isAdminEmail } from "../platform/admins";
import { db, type Queryable, rowsOf } from "../platform/db/client";
import { brands, type Profile, profiles, sessions, users } from "../platform/db/schema";
import { ProviderRefusedError } from "../platform/errors";
import { announceCommitted, publishAll, type RealtimeEvent } from "../platform/realtime";
import { conformCards } from "./visibility";

/**
 * The one way a card is written (docs/decisions/031-one-way-to-write-a-card.md).
 * Every path that makes, changes, claims or switches off a card (the forms,
 * the import, invitations, single sign-on, provisioning) does it through a
 * `CardWriter`, which in the same transaction records the audit entry under
 * its author and announces the change, so that cached pages, the directory and
 * open browsers refresh on every instance. Nothing else writes the table: a
 * test reads every domain file for writes to it.
 */

/** Who changes a card, as the audit log names them. */
export type CardAuthor =
  /** A member at their own card (or an administrator at theirs): only a rename is on the record. */
  | { kind: "member"; actor: Actor }
  /** An administrator at anyone's card: every change is on the record; a bulk action's entries share a `batch`. */
  | { kind: "administrator"; actor: Actor; batch?: string }
  /** A bulk import, in its administrator's name; each entry names the file. */
  | { kind: "import"; actor: Actor; fileName: string }
  /** A provisioning connection of the company's identity provider (SCIM). */
  | ({ kind: "scim" } & ConnectionAuthor)
  /** A person's own sign-in, invitation or confirmation: the card follows what they proved, off the record. */
  | { kind: "owner" };

/** The columns a writer sets; the id, the view count and the search text are the database's. */
export type CardValues = Omit<typeof profiles.$inferInsert, "id" | "viewCount" | "createdAt" | "updatedAt">;

/** What a claim sets besides the owner: values, or expressions of the card's own (keep a value it has). */
export type ClaimValues = { [Key in keyof CardValues]?: CardValues[Key] | SQL };

/** A card as an audit entry names it. */
export type CardTarget = { id: string; label: string };

export function cardLabel(card: { firstName: string; lastName: string; username?: string }): string {
  const name = fullName(card);
  return card.username ? `${name} (@${card.username})` : name;
}

export class CardWriter {
  readonly #events: RealtimeEvent[] = [];
  /** Cards changed whose policies and brand template are applied when the work ends (`settle`). */
  readonly #unsettled = new Set<string>();

  constructor(
    readonly tx: Queryable,
    readonly author: CardAuthor,
  ) {}

  /** The events written so far, sent when the work ends. */
  get events(): readonly RealtimeEvent[] {
    return this.#events;
  }

  /**
   * The one guard for a provider's writes: a SCIM connection never writes an
   * administrator's card (by role, or an address in ADMIN_EMAILS, whenever the
   * role was given), so no provider can switch one off or change its address.
   * Other authors pass.
   */
  async assertProviderMay(cardId: string): Promise<void> {
    if (this.author.kind !== "scim") return;
    const [card] = await this.tx
      .select({ email: profiles.email, ownerEmail: users.email, ownerRole: users.role })
      .from(profiles)
      .leftJoin(users, eq(users.id, profiles.userId))
      .where(eq(profiles.id, cardId));
    if (!card) return;
    if (card.ownerRole === "admin" || isAdminEmail(card.email) || isAdminEmail(card.ownerEmail)) {
      throw new ProviderRefusedError("This card is an administrator's, managed in Namecard only.");
    }
  }

  /**
   * …nor gives a card (`cardId`, or a new one) an address that is an
   * administrator's, or that an account holds while its own card is another.
   */
  async #assertProviderMayUse(email: string, cardId: string | null): Promise<void> {
    if (this.author.kind !== "scim") return;
    if (isAdminEmail(email)) {
      throw new ProviderRefusedError("This address is an administrator's, managed in Namecard only.");
    }
    const accounts = await this.tx
      .select({ role: users.role, card: profiles.id })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
    if (accounts.some((account) => account.role === "admin")) {
      throw new ProviderRefusedError("This address is an administrator's, managed in Namecard only.");
    }
    if (accounts.some((account) => account.card !== null && account.card !== cardId)) {
      throw new ProviderRefusedError("This address belongs to an account whose card is another.");
    }
  }

  #changed(id: string) {
    if (!this.#events.some((event) => event.kind === "profile" && event.id === id)) {
      this.#events.push({ kind: "profile", id });
    }
  }

  async #record(action: "create" | "update" | "deactivate" | "reactivate", target: CardTarget, changes: AuditChanges) {
    const author = this.author;
    if (author.kind === "owner") return;
    if (author.kind === "member") {
      // A member's own rename is on the record (an old address now leads to their card); their other edits are theirs.
      if (!changes.username) return;
      changes = { username: changes.username };
    }
    if (Object.keys(changes).length === 0 && action === "update") return;
    if (changes.companyBrandId)
      changes = { ...changes, companyBrandId: await brandNames(this.tx, changes.companyBrandId) };
    const actor = author.kind === "scim" ? { connection: author.connection } : author.actor;
    const via: AuditChanges = author.kind === "import" ? { import: [null, author.fileName] } : {};
    await recordAdminAction(this.tx, {
      actor,
      action,
      target: { kind: "profile", ...target },
      changes: { ...changes, ...via },
      batch: author.kind === "administrator" ? author.batch : undefined,
    });
  }

  /** Makes one card; its audit entry lists its values (a photo as "new image"), or `changes` when given. */
  async create(given: CardValues, options: { changes?: AuditChanges } = {}): Promise<Profile> {
    await this.#assertProviderMayUse(given.email, null);
    const values = placed(given, await brandPlacement(this.tx));
    const [card] = await this.tx
      .insert(profiles)
      .values({ ...values, viewCount: 0 })
      .returning();
    if (!card) throw new Error("Inserting the profile returned no row");
    this.#changed(card.id);
    // The card follows the policies and its brand's template from its first moment.
    const [conformed = card] = (await conformCards(this.tx, eq(profiles.id, card.id))).length
      ? await this.tx.select().from(profiles).where(eq(profiles.id, card.id))
      : [card];
    // Who owns it and who it reports to read in the entry as the screens show them, not as ids.
    const { userId: _owner, claimedAt: _claimed, selfJoined: _self, managerId: _manager, ...recorded } = values;
    const changes = options.changes ?? changedFields(null, recorded, ["profilePhoto"]);
    await this.#record("create", { id: card.id, label: cardLabel(card) }, changes);
    return conformed;
  }

  /**
   * Makes many cards at once (a batch of an import), each unclaimed; the
   * import's own entry records them, so they get none each.
   */
  async createMany(rows: CardValues[]): Promise<{ id: string; email: string }[]> {
    if (rows.length === 0) return [];
    const place = await brandPlacement(this.tx);
    const made = await this.tx
      .insert(profiles)
      .values(rows.map((values) => ({ ...placed(values, place), viewCount: 0 })))
      .returning({ id: profiles.id, email: profiles.email });
    for (const card of made) this.#changed(card.id);
    await conformCards(
      this.tx,
      inArray(
        profiles.id,
        made.map((card) => card.id),
      ),
    );
    return made;
  }

  /**
   * Changes a card's values. `changes` is what the audit entry says changed
   * (the caller knows how its fields read, a manager by name); without it the
   * entry lists the values given. `where` narrows the write further (the
   * cards an actor may change); nothing is written when it matches nothing.
   */
  async update(
    target: CardTarget,
    values: Partial<CardValues>,
    options: { changes?: AuditChanges; where?: SQL } = {},
  ): Promise<boolean> {
    await this.assertProviderMay(target.id);
    if (values.email !== undefined) await this.#assertProviderMayUse(values.email, target.id);
    // Nothing to set is nothing to write (a provider sending what the card already holds).
    if (Object.keys(values).length === 0) return false;
    const written = await this.tx
      .update(profiles)
      .set(values)
      .where(options.where ? and(eq(profiles.id, target.id), options.where) : eq(profiles.id, target.id))
      .returning({ id: profiles.id });
    if (written.length === 0) return false;
    this.#changed(target.id);
    this.#unsettled.add(target.id);
    await this.#record("update", target, options.changes ?? changedFields(null, values));
    return true;
  }

  /**
   * Gives an unclaimed card that `where` picks to the account `userId`, unless
   * that account owns a card already, with `values` set as it is claimed.
   * Returns the claimed card, or null.
   */
  async claim(where: SQL, userId: string, values: ClaimValues = {}): Promise<Profile | null> {
    const [claimed] = await this.tx
      .update(profiles)
      .set({ ...values, userId, claimedAt: new Date() })
      .where(
        and(
          where,
          isNull(profiles.userId),
          sql`not exists (select 1 from ${profiles} owned where owned.user_id = ${userId})`,
        ),
      )
      .returning();
    if (!claimed) return null;
    this.#changed(claimed.id);
    const [conformed = claimed] = (await conformCards(this.tx, eq(profiles.id, claimed.id))).length
      ? await this.tx.select().from(profiles).where(eq(profiles.id, claimed.id))
      : [claimed];
    return conformed;
  }

  /**
   * Gives each of these new cards to the confirmed account with its address
   * that has no card yet: a card made for someone who already signed up
   * belongs to them at once.
   */
  async claimForAccounts(cardIds: readonly string[]): Promise<void> {
    if (cardIds.length === 0) return;
    const ids = JSON.stringify(cardIds);
    const claimed = await this.tx.execute(sql`
      update ${profiles} p set user_id = u.id, claimed_at = now()
      from ${users} u
      where p.id in (select (jsonb_array_elements_text(${ids}::jsonb))::uuid)
        and p.user_id is null and u.email_verified
        and lower(u.email) = lower(p.email)
        and not exists (select 1 from ${profiles} other where other.user_id = u.id)
      returning p.id`);
    for (const row of rowsOf(claimed) as { id: string }[]) this.#changed(row.id);
  }

  /**
   * Switches a card off or on again (docs/decisions/019-deactivation-and-audit-log.md).
   * Switching it off ends its owner's sessions at once, on every instance.
   * Returns whether the state changed; asking for the state it is in records nothing.
   */
  async setActive(
    card: CardTarget & { userId: string | null; deactivatedAt: Date | null },
    active: boolean,
  ): Promise<boolean> {
    if ((card.deactivatedAt === null) === active) return false;
    await this.assertProviderMay(card.id);
    await this.tx
      .update(profiles)
      .set({ deactivatedAt: active ? null : new Date() })
      .where(eq(profiles.id, card.id));
    this.#changed(card.id);
    if (!active && card.userId) {
      await this.tx.delete(sessions).where(eq(sessions.userId, card.userId));
      this.#events.push({ kind: "user-sessions-ended", id: card.userId });
    }
    await this.#record(active ? "reactivate" : "deactivate", card, {
      state: [active ? "deactivated" : "active", active ? "active" : "deactivated"],
    });
    return true;
  }

  /**
   * Applies the policies in force and each card's brand template to the cards
   * changed (a card moved to another brand takes that brand's values), in one
   * statement per brand: `writeCards` calls it when the work ends.
   */
  async settle(): Promise<void> {
    if (this.#unsettled.size === 0) return;
    await conformCards(this.tx, inArray(profiles.id, [...this.#unsettled]));
    this.#unsettled.clear();
  }

  /** Unlinks a card from its account (the account's provider removed the person); the card stays. */
  async release(card: CardTarget, userId: string): Promise<void> {
    await this.assertProviderMay(card.id);
    await this.tx
      .update(profiles)
      .set({ userId: null, claimedAt: null })
      .where(and(eq(profiles.id, card.id), eq(profiles.userId, userId)));
    this.#changed(card.id);
  }
}

/**
 * Runs `work` with a writer in a transaction of its own, or in `tx` when the
 * caller's transaction holds more (an import's batch). The events are sent in
 * the transaction, so they reach every instance on commit and never for a
 * rolled-back change; this instance hears them before this returns.
 */
export async function writeCards<T>(
  author: CardAuthor,
  work: (cards: CardWriter) => Promise<T>,
  tx?: Queryable,
): Promise<T> {
  if (tx) {
    const writer = new CardWriter(tx, author);
    const result = await work(writer);
    await writer.settle();
    await publishAll([...writer.events], tx);
    return result;
  }
  let events: readonly RealtimeEvent[] = [];
  const result = await db.transaction(async (inner) => {
    const writer = new CardWriter(inner, author);
    const value = await work(writer);
    await writer.settle();
    await publishAll([...writer.events], inner);
    events = writer.events;
    return value;
  });
  announceCommitted(events);
  return result;
}

/** A card made without a brand takes the brand of its address's domain, or the default brand (brands/domains.ts). */
function placed(values: CardValues, place: (email: string) => number | null): CardValues {
  return values.companyBrandId == null ? { ...values, companyBrandId: place(values.email) } : values;
}

/** A brand change as the audit log shows it: the brands' names, as people know them, never their ids. */
async function brandNames(tx: Queryable, [before, after]: [unknown, unknown]): Promise<[unknown, unknown]> {
  const ids = [before, after].filter((id): id is number => typeof id === "number");
  const rows = ids.length
    ? await tx.select({ id: brands.id, name: brands.name }).from(brands).where(inArray(brands.id, ids))
    : [];
  const name = (id: unknown) => (typeof id === "number" ? (rows.find((row) => row.id === id)?.name ?? `#${id}`) : null);
  return [name(before), name(after)];
}

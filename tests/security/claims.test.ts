import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getOptionalViewer, requireViewer } from "~/.server/http/authz";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { profiles, users } from "~/.server/platform/db/schema";
import { mailSettled } from "~/.server/platform/mail";
import { action as dashboardAction } from "~/routes/admin/profiles";
import { action as createAction } from "~/routes/admin/profiles-create";
import { action as cardEmailAction, loader as cardEmailLoader } from "~/routes/app/card-email";
import { action as editAction } from "~/routes/app/profile-edit";
import {
  cookieFrom,
  createMember,
  getRequest,
  latestMail,
  multipartRequest,
  run,
  uniqueEmail,
} from "../server/helpers";
import { mailWithSubject, newBrowser, newestLink, openIn, signUpIn } from "./accounts-support";

function cardForm(card: typeof profiles.$inferSelect, changes: Record<string, string>) {
  const form = new FormData();
  const fields = {
    firstName: card.firstName,
    lastName: card.lastName,
    username: card.username,
    email: card.email,
    title: card.title ?? "",
    phone: card.phone ?? "",
    bio: card.bio ?? "",
    linkedinUrl: card.linkedinUrl ?? "",
    companyBrandId: card.companyBrandId ? String(card.companyBrandId) : "",
    ...changes,
  };
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

async function cardOf(id: string) {
  const [card] = await db.select().from(profiles).where(eq(profiles.id, id));
  return card!;
}

async function admin() {
  return createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
}

describe("a member's card shows only an address they receive mail at", () => {
  it("an address of someone else is not shown until a link sent to it is opened by the member, signed in", async () => {
    const squatter = await createMember({ firstName: "Sam" });
    const victim = uniqueEmail("colleague");
    const card = await cardOf(squatter.viewer.profile!.id);
    const saved = await run(
      editAction,
      await multipartRequest("/profile/edit", cardForm(card, { email: victim, title: "Buyer" }), squatter),
      {},
      squatter.viewer,
    );
    expect(saved.status).toBe(302);
    expect((await readToast(cookieFrom(saved.headers)))?.text).toContain(
      `We sent a link to ${victim}: your card shows that address once you open it.`,
    );
    // The rest was saved; the address was not.
    expect(await cardOf(card.id)).toMatchObject({ email: squatter.email, title: "Buyer" });
    await mailSettled();
    const mail = latestMail(victim)!;
    expect(mail.subject).toBe("Confirm the email address for your Namecard card");
    expect(mail.raw).not.toContain("Sam");

    // The real holder of the address signs up and gets a card of their own, not a "setup in progress" screen.
    const holder = newBrowser();
    await signUpIn(holder, { email: victim, password: "the holder's own secret" });
    await openIn(holder, newestLink(victim));
    expect((await getOptionalViewer(getRequest("/", holder.cookie)))?.profile?.email).toBe(victim);

    // The card-email link (sent before) is worthless to anyone but the member who asked.
    const token = new URL(mailWithSubject(victim, "Confirm the email address")!.link!).searchParams.get("token")!;
    const holderViewer = await requireViewer(getRequest("/", holder.cookie));
    const asHolder = await run(cardEmailLoader, getRequest(`/account/card-email?token=${token}`), {}, holderViewer);
    expect(asHolder.data).toMatchObject({ email: null });
  });

  it("the member who asked confirms the new address with a button, and then the card shows it", async () => {
    const member = await createMember();
    const card = await cardOf(member.viewer.profile!.id);
    const next = uniqueEmail("second-mailbox");
    await run(
      editAction,
      await multipartRequest("/profile/edit", cardForm(card, { email: next }), member),
      {},
      member.viewer,
    );
    await mailSettled();
    const link = new URL(latestMail(next)!.link!);
    expect(link.pathname).toBe("/account/card-email");
    const token = link.searchParams.get("token")!;

    // Opening the page changes nothing (a mail scanner may open links).
    const page = await run(cardEmailLoader, getRequest(`${link.pathname}${link.search}`), {}, member.viewer);
    expect(page.data).toEqual({ token, email: next });
    expect((await cardOf(card.id)).email).toBe(member.email);

    const confirmed = await run(
      cardEmailAction,
      await multipartRequest(
        "/account/card-email",
        (() => {
          const form = new FormData();
          form.set("token", token);
          return form;
        })(),
        member,
      ),
      {},
      member.viewer,
    );
    expect(confirmed).toMatchObject({ status: 302, location: "/profile/edit" });
    expect((await readToast(cookieFrom(confirmed.headers)))?.text).toBe(`Your card now shows ${next}.`);
    expect((await cardOf(card.id)).email).toBe(next);
  });

  it("going back to the account's own address needs no link", async () => {
    const member = await createMember();
    const card = await cardOf(member.viewer.profile!.id);
    await db
      .update(profiles)
      .set({ email: uniqueEmail("old") })
      .where(eq(profiles.id, card.id));
    const saved = await run(
      editAction,
      await multipartRequest("/profile/edit", cardForm(await cardOf(card.id), { email: member.email }), member),
      {},
      member.viewer,
    );
    expect(saved.status).toBe(302);
    expect((await cardOf(card.id)).email).toBe(member.email);
  });

  it("administrators still set any address on a card that nobody has claimed", async () => {
    const boss = await admin();
    const [card] = await db
      .insert(profiles)
      .values({ email: uniqueEmail("prep"), firstName: "Pre", lastName: "Pared", username: "pre.pared" })
      .returning();
    const next = uniqueEmail("elsewhere");
    const form = cardForm(card!, { email: next });
    form.set("intent", "update");
    form.set("id", card!.id);
    const saved = await run(dashboardAction, await multipartRequest("/admin/profiles", form, boss), {}, boss.viewer);
    expect(saved.status).toBe(302);
    expect((await cardOf(card!.id)).email).toBe(next);
  });
});

describe("a card is claimed when it appears, not only at confirmation", () => {
  it("a member whose card was deleted and re-created by an administrator gets it on their next page", async () => {
    const member = await createMember({ firstName: "Back" });
    await db.delete(profiles).where(eq(profiles.id, member.viewer.profile!.id));
    expect((await getOptionalViewer(getRequest("/", member.cookie)))?.profile).toBeNull();

    const [recreated] = await db
      .insert(profiles)
      .values({ email: member.email.toUpperCase(), firstName: "Back", lastName: "Again", username: "back.again" })
      .returning();
    const viewer = await getOptionalViewer(getRequest("/directory", member.cookie));
    expect(viewer?.profile?.id).toBe(recreated!.id);
    const [user] = await db.select().from(users).where(eq(users.email, member.email));
    expect((await cardOf(recreated!.id)).userId).toBe(user!.id);
  });

  it("a card an administrator creates for the address of an existing account is linked at once", async () => {
    const boss = await admin();
    const member = await createMember();
    await db.delete(profiles).where(eq(profiles.id, member.viewer.profile!.id));
    const form = new FormData();
    for (const [name, value] of Object.entries({ firstName: "Made", lastName: "Foryou", email: member.email })) {
      form.set(name, value);
    }
    const created = await run(
      createAction,
      await multipartRequest("/admin/profiles/create", form, boss),
      {},
      boss.viewer,
    );
    expect(created.status).toBe(302);
    const [card] = await db.select().from(profiles).where(eq(profiles.email, member.email));
    const [user] = await db.select().from(users).where(eq(users.email, member.email));
    expect(card?.userId).toBe(user!.id);
  });

  it("a deleted card is not brought back by itself", async () => {
    const member = await createMember();
    await db.delete(profiles).where(eq(profiles.id, member.viewer.profile!.id));
    expect((await getOptionalViewer(getRequest("/", member.cookie)))?.profile).toBeNull();
    expect(await db.select().from(profiles).where(eq(profiles.email, member.email))).toEqual([]);
  });
});

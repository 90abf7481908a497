// The browser tests' data (tests/e2e/serve.js runs it before the e2e server
// starts): the demo data, then the accounts the tests sign in with
// (tests/e2e/people.ts), then a few unclaimed cards that tests change or look
// at closely (BRAND_CARDS, LONG_CARD, RENAMED_CARD, PLAIN_CARD there).
import { connectDatabase } from "~/.server/platform/db/connect";
import { brands, profiles, siteSettings } from "~/.server/platform/db/schema";
import {
  BRAND_CARDS,
  COMPANY_DOMAINS,
  LONG_CARD,
  OUTSIDER,
  PASSWORD,
  PEOPLE,
  PLAIN_CARD,
  RENAMED_CARD,
} from "../tests/e2e/people";
import { createMember } from "../tests/support/members";

await import("./seed");

const handle = await connectDatabase();
try {
  // The company's two domains: the administrator's and its people's. The site counts as set up: the
  // getting-started list would stand above every dashboard the tests read (its own tests are below the browser).
  await handle.db
    .insert(siteSettings)
    .values({ id: 1, joinRule: "domains", joinDomains: COMPANY_DOMAINS.join("\n"), setupFinishedAt: new Date() });
  for (const person of Object.values(PEOPLE)) await createMember({ ...person, password: PASSWORD });
  // Joined while anyone could, and now outside the rule (tests/e2e/who-can-join.alone.spec.ts).
  await createMember({ ...OUTSIDER, password: PASSWORD });
  for (const card of [...Object.values(BRAND_CARDS), LONG_CARD]) {
    const [brand] = await handle.db.insert(brands).values(card.brand).returning({ id: brands.id });
    await handle.db.insert(profiles).values({ ...card.person, companyBrandId: brand?.id ?? null });
  }
  await handle.db.insert(profiles).values([RENAMED_CARD, PLAIN_CARD]);
  console.info(`[e2e] ${Object.keys(PEOPLE).length} test accounts, ${Object.keys(BRAND_CARDS).length} brand cards`);
} finally {
  await handle.close();
}

// `npm run seed:demo`: a few brands and about 30 profiles so a newcomer can
// explore. Idempotent: running it again adds nothing that is already there.
// Stop the server first when it uses embedded PGlite (one process per data dir).
import "./startup-faults";
import { generateRandomString, hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import { db } from "~/.server/platform/db/client";
import { connectDatabase } from "~/.server/platform/db/connect";
import { accounts, brands, profiles, users } from "~/.server/platform/db/schema";
import { claimOrCreateProfile } from "~/.server/profiles/claim-profile";
import { uniqueUsername, usernameBase } from "~/.server/profiles/usernames";

export const DEMO_PASSWORD = "namecard-demo";

const BRANDS = [
  {
    name: "Northwind Traders",
    primaryColor: "#2563eb",
    secondaryColor: "#0ea5e9",
    website: "https://northwind.example",
  },
  { name: "Lumen Studio", primaryColor: "#9333ea", secondaryColor: "#ec4899", website: "https://lumen.example" },
  { name: "Evergreen Foods", primaryColor: "#16a34a", secondaryColor: "#84cc16", website: "https://evergreen.example" },
  { name: "Harbor Logistics", primaryColor: "#0f766e", secondaryColor: "#14b8a6", website: "https://harbor.example" },
  { name: "Copperline Energy", primaryColor: "#ea580c", secondaryColor: "#f59e0b", website: null },
];

const TITLES = [
  "Account Executive",
  "Product Designer",
  "Software Engineer",
  "Head of Marketing",
  "Operations Manager",
  "Customer Success Lead",
  "Data Analyst",
  "Chief Financial Officer",
  "Brand Strategist",
  "Logistics Coordinator",
];

/** The demo account the seed's message suggests signing in with. */
const FIRST_PERSON: [string, string] = ["Amelia", "Hart"];

const PEOPLE: [string, string][] = [
  FIRST_PERSON,
  ["Noah", "Fischer"],
  ["Zoë", "Laurent"],
  ["Mateo", "García"],
  ["Priya", "Raman"],
  ["Liam", "O'Connor"],
  ["Sofia", "Rossi"],
  ["Kenji", "Watanabe"],
  ["Chloé", "Dubois"],
  ["Ethan", "Brooks"],
  ["Aisha", "Bello"],
  ["Lucas", "Silva"],
  ["Ingrid", "Johansson"],
  ["Omar", "Haddad"],
  ["Mei", "Chen"],
  ["Jonas", "Becker"],
  ["Isabella", "Moreno"],
  ["Daniel", "Kowalski"],
  ["Nora", "Lindqvist"],
  ["Samuel", "Adeyemi"],
  ["Léa", "Martin"],
  ["Arjun", "Mehta"],
  ["Hannah", "Weber"],
  ["Diego", "Fernández"],
  ["Yara", "Costa"],
  ["Oliver", "Nguyen"],
  ["Freya", "Olsen"],
  ["Rafael", "Santos"],
  ["Elif", "Yılmaz"],
  ["Tomás", "Novak"],
];

/** Where the demo people work: the directory's department and office facets list these. */
const DEPARTMENTS = ["Engineering", "Sales", "Marketing", "Operations", "Finance"];
const OFFICES = ["Lisbon", "Berlin", "New York"];

/** The first few people get an account (and so a claimed card); the rest stay unclaimed. */
const CLAIMED_COUNT = 8;

function emailFor(first: string, last: string) {
  return `${usernameBase(first, last).replace(/[^a-z0-9.]/g, "")}@demo.namecard.test`;
}

async function seedBrands() {
  const ids: number[] = [];
  for (const brand of BRANDS) {
    const [existing] = await db.select({ id: brands.id }).from(brands).where(eq(brands.name, brand.name)).limit(1);
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const [created] = await db.insert(brands).values(brand).returning({ id: brands.id });
    if (!created) throw new Error(`[seed] the brand ${brand.name} was not created`);
    ids.push(created.id);
  }
  return ids;
}

async function seedProfiles(brandIds: number[]) {
  let created = 0;
  for (const [index, [firstName, lastName]] of PEOPLE.entries()) {
    const email = emailFor(firstName, lastName);
    const [existing] = await db
      .select({ id: profiles.id })
      .from(profiles)
      .where(sql`lower(${profiles.email}) = ${email}`)
      .limit(1);
    if (existing) continue;
    await db.insert(profiles).values({
      firstName,
      lastName,
      email,
      username: await uniqueUsername(db, usernameBase(firstName, lastName)),
      title: TITLES[index % TITLES.length],
      department: DEPARTMENTS[index % DEPARTMENTS.length],
      office: OFFICES[index % OFFICES.length],
      phone: `+1 555 01${String(index).padStart(2, "0")}`,
      bio:
        index % 3 === 0
          ? `${firstName} has been with the group for ${2 + (index % 7)} years and loves connecting people across brands.`
          : null,
      linkedinUrl:
        index % 2 === 0 ? `https://www.linkedin.com/in/${usernameBase(firstName, lastName).replace(/\./g, "-")}` : null,
      companyBrandId: index % 6 === 5 ? null : brandIds[index % brandIds.length],
      viewCount: 0,
    });
    created++;
  }
  return created;
}

async function seedAccounts() {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  let created = 0;
  for (const [firstName, lastName] of PEOPLE.slice(0, CLAIMED_COUNT)) {
    const email = emailFor(firstName, lastName);
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (existing) continue;
    const id = generateRandomString(32);
    await db.transaction(async (tx) => {
      await tx.insert(users).values({
        id,
        name: `${firstName} ${lastName}`,
        email,
        emailVerified: true,
        firstName,
        lastName,
      });
      await tx.insert(accounts).values({
        id: generateRandomString(32),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: passwordHash,
      });
    });
    await claimOrCreateProfile({ id, email, emailVerified: true, firstName, lastName });
    created++;
  }
  return created;
}

const handle = await connectDatabase();
try {
  const brandIds = await seedBrands();
  const profileCount = await seedProfiles(brandIds);
  const accountCount = await seedAccounts();
  console.info(
    `[seed] ${BRANDS.length} brands, ${profileCount} new profiles, ${accountCount} new demo accounts` +
      ` (sign in as ${emailFor(...FIRST_PERSON)} with the password "${DEMO_PASSWORD}").`,
  );
} finally {
  await handle.close();
}

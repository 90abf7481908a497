// Run by the e2e server before it starts: the demo data, then the accounts the
// browser tests sign in with (tests/e2e/people.ts).
import { connectDatabase } from "~/.server/db/connect";
import { createMember } from "../support/members";
import { PASSWORD, PEOPLE } from "./people";

await import("../../scripts/seed");

const handle = await connectDatabase();
try {
  for (const person of Object.values(PEOPLE)) await createMember({ ...person, password: PASSWORD });
  console.info(`[e2e] ${Object.keys(PEOPLE).length} test accounts`);
} finally {
  await handle.close();
}

// The browser tests' data (tests/e2e/serve.js runs it before the e2e server
// starts): the demo data, then the accounts the tests sign in with
// (tests/e2e/people.ts).
import { connectDatabase } from "~/.server/db/connect";
import { PASSWORD, PEOPLE } from "../tests/e2e/people";
import { createMember } from "../tests/support/members";

await import("./seed");

const handle = await connectDatabase();
try {
  for (const person of Object.values(PEOPLE)) await createMember({ ...person, password: PASSWORD });
  console.info(`[e2e] ${Object.keys(PEOPLE).length} test accounts`);
} finally {
  await handle.close();
}
